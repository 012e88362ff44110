#!/usr/bin/env python3
"""Writes a source root and a report of about SIZE megabytes that is hard
to check: K citations on one line before an M-line blockquote of "…".

    scripts/bench/long-report.py SIZE_MB DIR    # DIR/root/規程.md, DIR/report.md

Then: lwr --source-root DIR/root validate DIR/report.md (under /usr/bin/time -v).
"""
import json
import os
import sys
import urllib.parse

size = float(sys.argv[1]) * 1e6
out = sys.argv[2]
root = os.path.abspath(os.path.join(out, "root"))
os.makedirs(root, exist_ok=True)
doc = os.path.join(root, "規程.md")
with open(doc, "w", encoding="utf-8") as f:
    f.write("# 規程\n有給休暇の申請は三日前まで。\n")
p = doc.replace(os.sep, "/")
cite = "[規程.md](%s#L2-L2) (L2-L2) [VS Codeで開く](vscode://file/%s:2)" % (p, urllib.parse.quote(p, safe="/"))
k = int(size / 2 / (len(cite.encode()) + 1))
m = int(size / 2 / len("> …\n".encode()))
comment = {
    "sections": [{"id": "local_info", "title": "1. ローカル情報"}, {"id": "web_info", "title": "2. Web情報"},
                 {"id": "deep_local_info", "title": "3. 深堀りローカル情報"}, {"id": "conclusion", "title": "4. 結論"},
                 {"id": "sources", "title": "5. 出典"}],
    "sources": [{"title": "規程.md", "source_type": "local", "path": p, "lines": {"start": 2, "end": 2}}],
    "metadata": {"step_number": 4, "step_number_legacy": "D", "schema_version": "1.0"},
}
with open(os.path.join(out, "report.md"), "w", encoding="utf-8") as f:
    f.write("# 調査結果\n\n## 1. ローカル情報\n\n")
    f.write(" ".join([cite] * k) + "\n\n")
    f.write("> …\n" * m)
    f.write("\n## 2. Web情報\n\nWeb検索: スキップ（ユーザー指示）\n\n## 3. 深堀りローカル情報\n\n深堀り再検索: スキップ\n\n")
    f.write("## 4. 結論\n\n- 申請は三日前まで [L1]\n\n## 5. 出典\n\n- [L1] 規程\n\n")
    f.write("<!-- JSON: " + json.dumps(comment, ensure_ascii=False) + " -->\n")
print("%s: %d citations on one line, a blockquote of %d lines, %.1f MB" % (out, k, m, os.path.getsize(os.path.join(out, "report.md")) / 1e6))
