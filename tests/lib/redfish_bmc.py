#!/usr/bin/env python3
"""redfish_bmc.py - a Redfish service for one machine, for the lab tests.

Why: README's lab guide powers Redfish BMCs (iDRAC, iLO, XCC, OpenBMC)
through Debian's `redfishtool` in a small script, and no Redfish BMC is a
Debian package (OpenIPMI's ipmi_sim, the IPMI tests' BMC, speaks IPMI
only). This serves the part of DMTF's Redfish schema that a power driver
touches, as a BMC does: HTTPS (its certificate self-signed, as BMCs ship
theirs), the service root and /redfish unauthenticated, everything else
behind HTTP Basic authentication (401 otherwise), one ComputerSystem with
its PowerState, its Boot override (PATCH, with the ETag a BMC sends) and
its ComputerSystem.Reset action, whose allowable ResetType values it
lists and enforces.

The machine is a command (--start, run in its own process group, as
ipmi_sim's startcmd): On starts it, ForceOff and GracefulShutdown end it,
ForceRestart and PowerCycle end and start it; PowerState is "On" while it
runs. Every request is logged a line to --log: "METHOD PATH BODY", the
body's JSON compacted, so a test can say which calls a driver made.

Usage: redfish_bmc.py --port N --cert FILE --key FILE --user U
       --password-file F --start CMD --log FILE [--ready FILE]
"""
import argparse
import base64
import json
import os
import signal
import ssl
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SYSTEM = "/redfish/v1/Systems/1"
RESET = SYSTEM + "/Actions/ComputerSystem.Reset"
RESET_TYPES = ["On", "ForceOff", "GracefulShutdown", "ForceRestart", "PowerCycle"]
BOOT_TARGETS = ["None", "Pxe", "Hdd", "BiosSetup"]


class Machine:
    """The powered machine: a command in its own process group."""

    def __init__(self, start):
        self.start_cmd = start
        self.proc = None
        self.lock = threading.Lock()  # one power change at a time
        self.boot = {"BootSourceOverrideEnabled": "Disabled", "BootSourceOverrideTarget": "None"}
        self.etag = 1

    def on(self):
        return self.proc is not None and self.proc.poll() is None

    def power_on(self):
        if not self.on():
            # exec: the command keeps the shell's pid, the leader of the
            # group killed at power-off. A command that forked from sh ran
            # in sh's group until it moved to its own (timeout(1) does), so
            # a power-off ended sh alone and left the machine running.
            self.proc = subprocess.Popen(["/bin/sh", "-c", "exec " + self.start_cmd], start_new_session=True,
                                         stdin=subprocess.DEVNULL)

    def power_off(self):
        if self.on():
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.proc = None

    def reset(self, kind):
        with self.lock:
            if kind == "On":
                self.power_on()
            elif kind in ("ForceOff", "GracefulShutdown"):
                self.power_off()
            else:  # ForceRestart, PowerCycle
                self.power_off()
                self.power_on()
            # A one-time boot override is spent by the boot it applies to.
            if kind != "ForceOff" and kind != "GracefulShutdown" and self.boot["BootSourceOverrideEnabled"] == "Once":
                self.boot = {"BootSourceOverrideEnabled": "Disabled", "BootSourceOverrideTarget": "None"}
                self.etag += 1


def make_handler(args, machine, password):
    expected = "Basic " + base64.b64encode(("%s:%s" % (args.user, password)).encode()).decode()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *a):  # the request log is ours (--log)
            pass

        def note(self, body):
            with open(args.log, "a") as f:
                f.write("%s %s %s\n" % (self.command, self.path, body))

        def reply(self, code, obj=None, headers=()):
            data = json.dumps(obj).encode() if obj is not None else b""
            self.send_response(code)
            if obj is not None:
                self.send_header("Content-Type", "application/json")
                self.send_header("OData-Version", "4.0")
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def error(self, code, msg):
            self.reply(code, {"error": {"code": "Base.1.0.GeneralError", "message": msg}},
                       [("WWW-Authenticate", 'Basic realm="Redfish"')] if code == 401 else [])

        def body(self):
            n = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(n) if n else b""
            try:
                return json.loads(raw) if raw else {}
            except ValueError:
                return None

        def authorized(self):
            if self.headers.get("Authorization") == expected:
                return True
            self.error(401, "authentication required")
            return False

        def path_(self):
            return self.path.split("?")[0].rstrip("/") or "/"

        def system(self):
            return {
                "@odata.id": SYSTEM, "@odata.type": "#ComputerSystem.v1_10_0.ComputerSystem", "Id": "1",
                "Name": "xcbench test machine", "PowerState": "On" if machine.on() else "Off",
                "Boot": dict(machine.boot, **{"BootSourceOverrideTarget@Redfish.AllowableValues": BOOT_TARGETS}),
                "Actions": {"#ComputerSystem.Reset": {"target": RESET, "ResetType@Redfish.AllowableValues": RESET_TYPES}},
            }

        def do_GET(self):
            self.note("")
            p = self.path_()
            if p == "/redfish":
                return self.reply(200, {"v1": "/redfish/v1/"})
            if p == "/redfish/v1":
                return self.reply(200, {"@odata.id": "/redfish/v1/", "@odata.type": "#ServiceRoot.v1_5_0.ServiceRoot",
                                        "Id": "RootService", "RedfishVersion": "1.8.0",
                                        "Systems": {"@odata.id": "/redfish/v1/Systems"}})
            if not self.authorized():
                return
            if p == "/redfish/v1/Systems":
                return self.reply(200, {"@odata.id": "/redfish/v1/Systems", "Name": "Systems",
                                        "Members": [{"@odata.id": SYSTEM}], "Members@odata.count": 1})
            if p == SYSTEM:
                return self.reply(200, self.system(), [("ETag", 'W/"%d"' % machine.etag)])
            self.error(404, "no such resource: " + p)

        def write_body(self):
            """A write's JSON body (None: not JSON), logged, and whether the
            caller may write (if not, answered here)."""
            b = self.body()
            self.note(json.dumps(b, separators=(",", ":"), sort_keys=True))
            return self.authorized(), b

        def do_PATCH(self):
            ok, b = self.write_body()
            if not ok:
                return
            if self.path_() != SYSTEM:
                return self.error(405, "not patchable")
            boot = b.get("Boot") if isinstance(b, dict) else None
            if not isinstance(boot, dict) or not set(boot) <= {"BootSourceOverrideEnabled", "BootSourceOverrideTarget"}:
                return self.error(400, "only Boot's override can be set")
            if boot.get("BootSourceOverrideEnabled", "Once") not in ("Once", "Continuous", "Disabled") or \
               boot.get("BootSourceOverrideTarget", "None") not in BOOT_TARGETS:
                return self.error(400, "value not allowed")
            with machine.lock:
                machine.boot.update(boot)
                machine.etag += 1
            self.reply(200, self.system(), [("ETag", 'W/"%d"' % machine.etag)])

        def do_POST(self):
            ok, b = self.write_body()
            if not ok:
                return
            if self.path_() != RESET:
                return self.error(404, "no such action")
            kind = b.get("ResetType") if isinstance(b, dict) else None
            if kind not in RESET_TYPES:
                return self.error(400, "ResetType not allowed: %r" % (kind,))
            machine.reset(kind)
            self.reply(204)

    return Handler


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for o in ("--cert", "--key", "--user", "--password-file", "--start", "--log"):
        ap.add_argument(o, required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--ready", help="file written once the service listens")
    args = ap.parse_args()
    password = open(args.password_file).read().rstrip("\n")
    machine = Machine(args.start)
    srv = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(args, machine, password))
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(args.cert, args.key)
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)

    def stop(*_):
        machine.power_off()  # the machine goes with its BMC
        sys.exit(0)
    signal.signal(signal.SIGTERM, stop)
    if args.ready:
        open(args.ready, "w").write("%d\n" % args.port)
    try:
        srv.serve_forever()
    finally:
        machine.power_off()


if __name__ == "__main__":
    main()
