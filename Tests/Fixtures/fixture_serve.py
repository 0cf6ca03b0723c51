"""How the Python test services of Tests/Fixtures run: on 127.0.0.1, announcing `PORT <n>` on
stdout once they listen (the Swift side waits for it), ending at once on SIGTERM, and ending
by themselves when the test runner that started them dies without stopping them."""
import os
import signal
import threading
import time

from werkzeug.serving import make_server


def serve(app, port, request_handler, log):
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    parent = os.getppid()

    def watch_parent():
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)
    threading.Thread(target=watch_parent, daemon=True).start()

    httpd = make_server("127.0.0.1", port, app, threaded=True, request_handler=request_handler)
    print(f"PORT {httpd.server_port}", flush=True)
    log.info("listening on 127.0.0.1:%d", httpd.server_port)
    httpd.serve_forever()


def load_own_private_key(pem):
    """A private key the tests made themselves (beside a fixture), loaded without checking its
    primes, which costs an RSA key about 70 ms: tests start these fixtures by the dozen."""
    from cryptography.hazmat.primitives import serialization
    try:
        return serialization.load_pem_private_key(pem, password=None, unsafe_skip_rsa_key_validation=True)
    except TypeError:  # cryptography before 39 checks every key
        return serialization.load_pem_private_key(pem, password=None)
