// What the durable-calls article leaves to the reader: nothing; its snippets are whole.
