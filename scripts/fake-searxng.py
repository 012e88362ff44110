#!/usr/bin/env python3
"""A fake SearXNG for the research benchmark: answers /search?format=json
with three fixed results about the query, on 127.0.0.1:<port>."""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        q = parse_qs(urlparse(self.path).query).get("q", [""])[0]
        body = json.dumps({"query": q, "results": [
            {"url": "https://www.debian.org/doc/manuals/debian-faq/", "title": q + " — Debian FAQ",
             "content": "パッケージ管理システム dpkg と APT の使い方。依存関係、設定ファイル、ログの確認方法を説明する。",
             "engines": ["google", "bing"], "publishedDate": "2026-05-01"},
            {"url": "https://manpages.debian.org/", "title": "manpages-ja " + q,
             "content": "シェルのコマンド、オプション、環境変数 PATH、ファイルのパーミッションとシグナル。",
             "engines": ["bing"]},
            {"url": "https://example.com/blog/" + str(len(q)), "title": "ブログ: " + q,
             "content": "ターミナルでの操作例。ディレクトリの作成、ファイルの圧縮と展開、プロセスの一覧。",
             "engines": ["duckduckgo"]},
        ]}, ensure_ascii=False).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    srv = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0), Handler)
    print(srv.server_address[1], flush=True)
    srv.serve_forever()
