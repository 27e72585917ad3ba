# serve.py PORTS_FILE SECONDS [CERTIFICATE KEY] — the end-to-end suite's own loopback servers:
# Tests/E2E/pages served on two HTTP origins that differ only by port (127.0.0.1:A and
# 127.0.0.1:B), so ports and cross-origin frames are tested for real, and, given a certificate and
# its key, on an HTTPS origin (127.0.0.1:S), whose documents are secure contexts. A path under /auth/
# asks for HTTP Basic credentials (keystone, secret) and shows what it got. Binds free ports,
# writes "A B [S]" to PORTS_FILE (a line on standard output for "-"), and stops by itself after SECONDS (run.sh also stops it when it ends).
import base64, functools, http.server, os, ssl, sys, threading

GRANTED = "Basic " + base64.b64encode(b"keystone:secret").decode()

class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        if not self.path.startswith("/auth/"):
            return super().do_GET()
        granted = self.headers.get("Authorization") == GRANTED
        body = b"<!doctype html><p>" + (b"granted" if granted else b"denied") + b"</p>"
        self.send_response(200 if granted else 401)
        if not granted:
            self.send_header("WWW-Authenticate", 'Basic realm="keystone checks"')
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

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
