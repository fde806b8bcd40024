#!/usr/bin/env python3
"""wrong-server.py — an HTTP server on 127.0.0.1 that is not xcbenchd: it
answers every request 200 with a JSON body that is no object (a list), as
another service on the daemon's port might (tests/t-cli-errors.sh); with
html404, 404 with a web server's HTML error page.

  wrong-server.py PORTFILE [html404]   writes its port to PORTFILE once it
                                       listens, then serves until killed
"""
import os
import socket
import sys

BODY = b'[1, 2, null, "x"]'
HTML404 = (b'<!DOCTYPE HTML>\n<html lang="en">\n<head><title>Error response</title></head>\n'
           b'<body><h1>Error response</h1><p>Error code: 404</p></body>\n</html>\n')


def main():
    portfile = sys.argv[1]
    html = sys.argv[2:] == ['html404']
    srv = socket.socket()
    srv.bind(('127.0.0.1', 0))
    srv.listen(8)
    with open(portfile + '.tmp', 'w') as f:
        f.write(f'{srv.getsockname()[1]}\n')
    os.rename(portfile + '.tmp', portfile)
    while True:
        c, _ = srv.accept()
        c.settimeout(5)
        try:
            c.recv(65536)   # the request (one read: the CLI sends it whole)
            if html:
                c.sendall(b'HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n'
                          b'Content-Length: %d\r\nConnection: close\r\n\r\n' % len(HTML404) + HTML404)
            else:
                c.sendall(b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n'
                          b'Content-Length: %d\r\nConnection: close\r\n\r\n' % len(BODY) + BODY)
        except OSError:
            pass
        c.close()


if __name__ == '__main__':
    main()
