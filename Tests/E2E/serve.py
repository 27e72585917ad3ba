# serve.py — the end-to-end suite's own loopback HTTP servers: Tests/E2E/pages served on two
# origins that differ only by port (127.0.0.1:A and 127.0.0.1:B), so ports and cross-origin frames
# are tested for real. Binds free ports, writes "A B" to the file named on the command line, and
# stops by itself after the number of seconds given (run.sh also stops it when it ends).
import functools, http.server, os, sys, threading

class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def end_headers(self):
        # Pages may be kept in the back/forward cache: no header here forbids it.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

def main():
    ports_file, lifetime = sys.argv[1], float(sys.argv[2])
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pages")
    handler = functools.partial(Quiet, directory=root)
    servers = [http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) for _ in range(2)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    with open(ports_file + ".tmp", "w") as out:
        out.write(" ".join(str(server.server_address[1]) for server in servers))
    os.replace(ports_file + ".tmp", ports_file)
    threading.Event().wait(lifetime)

main()
