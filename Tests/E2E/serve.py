# serve.py PORTS_FILE SECONDS [CERTIFICATE KEY] — the end-to-end suite's own loopback servers:
# Tests/E2E/pages served on two HTTP origins that differ only by port (127.0.0.1:A and
# 127.0.0.1:B), so ports and cross-origin frames are tested for real, and, given a certificate and
# its key, on an HTTPS origin (127.0.0.1:S), whose documents are secure contexts. Binds free ports,
# writes "A B [S]" to PORTS_FILE (a line on standard output for "-"), and stops by itself after SECONDS (run.sh also stops it when it ends).
import functools, http.server, os, ssl, sys, threading

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
    if len(sys.argv) > 4:
        secure = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[3], sys.argv[4])
        secure.socket = context.wrap_socket(secure.socket, server_side=True)
        servers.append(secure)
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    ports = " ".join(str(server.server_address[1]) for server in servers)
    if ports_file == "-":
        print(ports, flush=True)
    else:
        with open(ports_file + ".tmp", "w") as out:
            out.write(ports)
        os.replace(ports_file + ".tmp", ports_file)
    threading.Event().wait(lifetime)

main()
