"""sol_console.py - a lab stand-in machine's serial console, where
ipmi_sim's SOL (its `sol` line in lablib.sh's config) connects: listens on
127.0.0.1:PORT, says "listening" on stdout once it does (the suites wait for
that line, not for a pause), and serves each connection on a thread of its
own, so a session opened again (after a drop, or the PostgreSQL pass) is
answered too. What a connection is sent is the suite's: serve(conn).
Used by tests/lib/san-daemon.sh and tests/t-lab-sol.sh."""
import socket
import threading


def serve_forever(port, serve):
    """Accept connections on 127.0.0.1:port forever, serve(conn) each on a
    daemon thread (the suite's timeout ends the process)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port))
    s.listen(4)
    print("listening", flush=True)
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve, args=(c,), daemon=True).start()
