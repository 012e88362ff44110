#!/usr/bin/env python3
# Times lwr mcp: the handshake, then one search call, N runs (median).
# LWR=path/to/lwr N=9 scripts/bench-mcp.py --source-root DIR --cache-dir DIR
import json, subprocess, sys, time, os, statistics
def once(args):
    t0=time.perf_counter()
    p=subprocess.Popen([os.environ.get("LWR","lwr")]+args+["mcp"],stdin=subprocess.PIPE,stdout=subprocess.PIPE,stderr=subprocess.DEVNULL)
    def send(o): p.stdin.write((json.dumps(o)+"\n").encode()); p.stdin.flush()
    def recv(): return json.loads(p.stdout.readline())
    send({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}); recv()
    send({"jsonrpc":"2.0","method":"notifications/initialized"})
    t1=time.perf_counter()
    send({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"query":"有給休暇 申請"}}}); r=recv()
    t2=time.perf_counter()
    p.stdin.close(); p.wait()
    assert "error" not in r, r
    return (t1-t0)*1000,(t2-t1)*1000
args=sys.argv[1:]
res=[once(args) for _ in range(int(os.environ.get("N","9")))]
print("init ms median %.1f, first search ms median %.1f"%(statistics.median(r[0] for r in res),statistics.median(r[1] for r in res)))
