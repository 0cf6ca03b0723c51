"""An upstream that misbehaves on purpose, for the outbound HTTP tests: raw sockets on
127.0.0.1, one thread per connection, keep-alive. The path picks the misbehaviour:

  /ok                      200 "ok"
  /echo                    200, the request's method, head and body length as JSON
  /allow                   200 {"action":"allow"}, what a verification request callback allows with
  /connections             200, how many connections were accepted so far
  /silent                  reads the request and never answers
  /head-only               a head announcing 100 bytes, then nothing
  /trickle                 a head, then one body byte every second
  /unauthorized/basic      401 with WWW-Authenticate: Basic (the answer URLSession never finishes)
  /unauthorized/bearer     401 with WWW-Authenticate: Bearer
  /stream?bytes=N          200 with N bytes of body, sent as fast as the reader takes them
  /chunked?bytes=N         the same, chunked (no length announced)
  /trailers                a short chunked answer with a trailer field, all in one send
  /reset                   a head announcing 1 MB, 1000 bytes, then a TCP reset
  /redirect?to=URL         302 to URL
  /headers?count=N         200 with N header fields
  /long-header?bytes=N     200 with one header line of N bytes
  /field?line=L            200 with the header line L as given (percent-decoded, CRLFs and all)

Whatever follows those paths is ignored (`/silent/v1/chat/completions` is silent), so a
caller that appends its own path to a configured base still meets the misbehaviour.

Announces `PORT <n>` on stdout once it listens; ends on SIGTERM or when its parent dies.
"""
import argparse
import json
import os
import signal
import socket
import struct
import threading
import time
import urllib.parse

connections = 0
lock = threading.Lock()


def read_head(conn, buffer):
    while b"\r\n\r\n" not in buffer:
        chunk = conn.recv(65536)
        if not chunk:
            return None, buffer
        buffer += chunk
    head, _, rest = buffer.partition(b"\r\n\r\n")
    return head.decode("latin-1"), rest


def answer(conn, status, reason, body=b"", headers=()):
    lines = [f"HTTP/1.1 {status} {reason}", f"Content-Length: {len(body)}"] + list(headers)
    conn.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)


def handle(conn):
    global connections
    with lock:
        connections += 1
    buffer = b""
    while True:
        head, buffer = read_head(conn, buffer)
        if head is None:
            return
        request_line, *fields = head.split("\r\n")
        method, target, _ = request_line.split(" ", 2)
        headers = {}
        for field in fields:
            name, _, value = field.partition(":")
            headers.setdefault(name.strip().lower(), value.strip())
        length = int(headers.get("content-length", "0") or 0)
        while len(buffer) < length:
            chunk = conn.recv(65536)
            if not chunk:
                return
            buffer += chunk
        body, buffer = buffer[:length], buffer[length:]
        url = urllib.parse.urlsplit(target)
        query = dict(urllib.parse.parse_qsl(url.query))
        parts = url.path.split("/")
        path = "/".join(parts[:3] if parts[1:2] == ["unauthorized"] else parts[:2])
        if path == "/ok":
            answer(conn, 200, "OK", b"ok", ["Content-Type: text/plain"])
        elif path == "/echo":
            echoed = {"method": method, "target": target, "headers": fields, "bodyLength": len(body),
                      "body": body.decode("utf-8", "replace")}
            answer(conn, 200, "OK", json.dumps(echoed).encode(), ["Content-Type: application/json"])
        elif path == "/allow":
            answer(conn, 200, "OK", b'{"action":"allow"}', ["Content-Type: application/json"])
        elif path == "/connections":
            answer(conn, 200, "OK", str(connections).encode())
        elif path == "/silent":
            time.sleep(3600)
        elif path == "/head-only":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")
            time.sleep(3600)
        elif path == "/trickle":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
            for _ in range(100000):
                conn.sendall(b"x")
                time.sleep(1)
        elif path.startswith("/unauthorized/"):
            scheme = "Basic realm=\"upstream\"" if path == "/unauthorized/basic" else "Bearer realm=\"upstream\", error=\"invalid_token\""
            answer(conn, 401, "Unauthorized", b'{"error":"invalid_client"}', [f"WWW-Authenticate: {scheme}", "Content-Type: application/json"])
        elif path == "/stream":
            total = int(query.get("bytes", "1048576"))
            conn.sendall(f"HTTP/1.1 200 OK\r\nContent-Length: {total}\r\nContent-Type: application/octet-stream\r\n\r\n".encode())
            piece = b"y" * 65536
            sent = 0
            while sent < total:
                part = piece[: min(len(piece), total - sent)]
                conn.sendall(part)
                sent += len(part)
        elif path == "/chunked":
            total = int(query.get("bytes", "1048576"))
            conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            sent = 0
            while sent < total:
                size = min(65536, total - sent)
                conn.sendall(b"%x\r\n" % size + b"c" * size + b"\r\n")
                sent += size
            conn.sendall(b"0\r\n\r\n")
        elif path == "/trailers":
            conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Trailer\r\nX-Head: yes\r\n\r\n"
                         b"5\r\nhello\r\n0\r\nX-Trailer: late\r\n\r\n")
        elif path == "/reset":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n" + b"z" * 1000)
            time.sleep(0.2)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            conn.close()
            return
        elif path == "/redirect":
            answer(conn, 302, "Found", b"", [f"Location: {query.get('to', '/ok')}"])
        elif path == "/headers":
            count = int(query.get("count", "300"))
            answer(conn, 200, "OK", b"many", [f"X-Field-{i}: {i}" for i in range(count)])
        elif path == "/spaced":
            # Spaces and tabs around a value are not part of it; a no-break space (UTF-8, sent
            # as its two bytes through the head's latin-1) is.
            answer(conn, 200, "OK", b"spaced", ["X-Spaced: \t \u00c2\u00a0value \u00c2\u00a0 \t"])
        elif path == "/field":
            answer(conn, 200, "OK", b"field", [query.get("line", "")])
        elif path == "/long-header":
            size = int(query.get("bytes", "102400"))
            answer(conn, 200, "OK", b"long", ["X-Long: " + "a" * size])
        else:
            answer(conn, 404, "Not Found", b"no such misbehaviour")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    port = parser.parse_args().port
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    parent = os.getppid()

    def watch_parent():
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)
    threading.Thread(target=watch_parent, daemon=True).start()

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(512)
    # Woken twice a second: SIGTERM may land on a connection's thread, and Python runs its
    # handler only on the main one, which a blocking accept would hold until the next client.
    listener.settimeout(0.5)
    print(f"PORT {listener.getsockname()[1]}", flush=True)

    def serve(conn):
        try:
            handle(conn)
        except OSError:
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass

    while True:
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            continue
        conn.settimeout(None)
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    main()
