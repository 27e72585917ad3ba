// What the article on swapping components leaves to the reader: the app's coders and screen.
import Foundation

let myDecoder = JSONDecoder()
let myEncoder = JSONEncoder()

/// Closes the screen that shows the web view.
func dismissScreen() {}
