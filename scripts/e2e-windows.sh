#!/usr/bin/env bash
# Drives the Windows build of lwr (lwr.exe under Wine) end to end over a
# fixture with a Shift_JIS file, CRLF lines and a path longer than 260
# characters: index build, ranked and full-text search, research
# --skip-web with every link of the report checked, validate, the daemon
# started detached, a search answered through it, a second daemon
# refused, and index stop. WINEPREFIX must be a prefix prepared by
# scripts/windows/wine-prefix.sh (scripts/test-windows.sh does it).
#   scripts/e2e-windows.sh
set -euo pipefail
cd "$(dirname "$0")/.."
: "${WINEPREFIX:?set WINEPREFIX to a prefix prepared by scripts/windows/wine-prefix.sh}"
export WINEDEBUG=-all
wine=/usr/lib/wine/wine64
work=$(mktemp -d /tmp/lwr-e2e-XXXXXX)
exe="$work/lwr.exe"
daemon_up=0
cleanup() {
  if ((daemon_up)); then run index stop >/dev/null 2>&1 || true; fi
  # A daemon left running by a failure: end its Wine process.
  pkill -f "$work/lwr.exe" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "e2e-windows: FAIL: $*" >&2; exit 1; }
step() { echo "e2e-windows: $*"; }

GOOS=windows GOARCH=amd64 go build -o "$exe" ./cmd/lwr

# winpath turns /tmp/x into Z:\tmp\x (Wine's drive for the Unix root).
winpath() { printf 'Z:%s' "${1//\//\\}"; }
docs="$work/docs" cache="$work/cache" ws="$work/ws"
cp -r testdata/sample "$docs"
# Office and PDF documents (pdftotext is not there: PDFs are skipped, said so).
cp index/extract/testdata/旅費規程.docx index/extract/testdata/単価表.xlsx index/extract/testdata/情報セキュリティ研修.pdf "$docs/"
mkdir -p "$ws"
python3 - "$docs" <<'PY'
import os, sys
docs = sys.argv[1]
# A Shift_JIS (CP932) rule, CRLF line ends, the answer on line 4.
os.makedirs(os.path.join(docs, "規程"), exist_ok=True)
with open(os.path.join(docs, "規程", "出張旅費_sjis.txt"), "wb") as f:
    f.write("出張旅費規程\r\n\r\n第1条 目的\r\n宿泊費の上限は一泊一万二千円とする。\r\n".encode("cp932"))
# A document deeper than MAX_PATH (260 characters).
deep = os.path.join(docs, *(["長いフォルダ名の階層" + str(i) for i in range(24)]))
os.makedirs(deep, exist_ok=True)
with open(os.path.join(deep, "深い場所のメモ.md"), "w", encoding="utf-8") as f:
    f.write("# 深い場所のメモ\n\nサーバー室の鍵は総務課で貸し出す。\n")
print("deep path length:", len(deep) + len("/深い場所のメモ.md"), file=sys.stderr)
PY
W_docs=$(winpath "$docs") W_cache=$(winpath "$cache") W_ws=$(winpath "$ws")
run() { timeout 120 "$wine" "$exe" --source-root "$W_docs" --cache-dir "$W_cache" "$@"; }

step "index build"
out=$(run index build) || fail "index build: $out"
grep -q "indexed .*docs" <<<"$out" || fail "index build printed: $out"

step "Word and Excel documents; PDFs without Poppler"
out=$(run search --format json-ext 宿泊料 上限) || fail "search of a docx: $out"
grep -q '旅費規程.docx' <<<"$out" && grep -q '見出し「第3条 宿泊料」' <<<"$out" || fail "the docx is not found with its heading: $out"
out=$(run search --mode fulltext --format files トナー) || fail "search of an xlsx: $out"
grep -q '単価表.xlsx' <<<"$out" || fail "the xlsx is not found: $out"
out=$(run index status) || fail "status: $out"
grep -q 'not read:     1 PDF files: pdftotext is not installed; install Poppler (winget' <<<"$out" || fail "status does not say what to install for PDFs: $out"

step "ranked search (Shift_JIS, CRLF)"
out=$(run search --format json 宿泊費 上限) || fail "search: $out"
python3 - "$out" "$docs" <<'PY' || fail "ranked search"
import json, sys
r = json.loads(sys.argv[1]); docs = sys.argv[2]
m = [x for x in r["matches"] if x["path"] == "規程/出張旅費_sjis.txt"]
assert m, "the Shift_JIS file was not found: %s" % [x["path"] for x in r["matches"]]
m = m[0]
lines = open(docs + "/規程/出張旅費_sjis.txt", encoding="cp932", newline="").read().split("\r\n")
cited = "\n".join(lines[m["snippetStartLine"] - 1:m["snippetEndLine"]]).strip()
assert cited == m["snippet"].strip(), (cited, m["snippet"])
assert not any("\\" in x["path"] for x in r["matches"]), "backslash in a path"
PY

step "ranked search of a path longer than 260 characters"
out=$(run search --format json サーバー室 鍵) || fail "search: $out"
grep -q '深い場所のメモ.md' <<<"$out" || fail "the deep document was not found: $out"

step "full-text search"
out=$(run search --format json --mode fulltext 一万二千円) || fail "fulltext: $out"
python3 -c 'import json,sys; r=json.loads(sys.argv[1]); assert [m["path"] for m in r["matches"]]==["規程/出張旅費_sjis.txt"], r' "$out" || fail "fulltext: $out"

step "research --skip-web, links and quotes checked"
out=$(run research --skip-web --json --workspace "$W_ws" 出張の宿泊費の上限) || fail "research: $out"
report=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["report"])' "$out")
unix_report=${report//\\//}; unix_report=${unix_report#Z:}
[[ -f $unix_report ]] || fail "no report at $report"
python3 - "$unix_report" "$docs" <<'PY' || fail "report links"
import re, sys, urllib.parse
md = open(sys.argv[1], encoding="utf-8").read()
cites = re.findall(r"\[([^\]]+)\]\(<?(Z:/[^)#>]+)#L(\d+)-L(\d+)>?\) \(L\d+-L\d+\) \[VS Codeで開く\]\((vscode://file/[^)]+)\)", md)
assert cites, "no citation in the report"
office = (".docx", ".xlsx", ".pptx", ".pdf")  # their lines are the extracted text: lwr validate checks them
for name, path, s, e, vs in cites:
    if path.endswith(office):
        continue
    assert "\\" not in path, path
    assert vs.startswith("vscode://file/Z:/"), vs
    assert urllib.parse.unquote(vs[len("vscode://file/"):vs.rindex(":")]) == path, (vs, path)
    unix = path[2:]
    data = open(unix, "rb").read()
    for enc in ("utf-8", "cp932"):
        try:
            text = data.decode(enc); break
        except UnicodeDecodeError:
            pass
    lines = text.replace("\r\n", "\n").split("\n")
    assert 1 <= int(s) <= int(e) <= len(lines), (path, s, e, len(lines))
# Every quoted snippet is exactly the lines it cites.
quotes = 0
md_lines = md.split("\n")
for i, l in enumerate(md_lines):
    m = re.match(r"\[[^\]]+\]\(<?(Z:/[^)#>]+)#L(\d+)-L(\d+)>?\) \(L", l)
    if not m or i + 2 >= len(md_lines) or not md_lines[i + 2].startswith("```") or m.group(1).endswith(office):
        continue
    fence = md_lines[i + 2][:len(md_lines[i + 2]) - len("text")]
    k = md_lines.index(fence, i + 3)
    quoted = "\n".join(md_lines[i + 3:k]).strip()
    data = open(m.group(1)[2:], "rb").read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("cp932")
    lines = text.replace("\r\n", "\n").split("\n")
    cited = "\n".join(lines[int(m.group(2)) - 1:int(m.group(3))]).strip()
    assert cited == quoted, (m.group(1), cited, quoted)
    quotes += 1
assert quotes > 0, "no quoted snippet"
print(len(cites), "citations and", quotes, "quotes checked", file=sys.stderr)
PY
out=$(run validate "$report") || fail "validate: $out"

step "the daemon, detached"
# Into a file, not a pipe: under Wine the detached process inherits the
# pipe of the command substitution, which would then wait for it.
daemon_up=1
run -v index watch --detach >"$work/detach.out" 2>&1 || fail "watch --detach: $(cat "$work/detach.out")"
out=$(run index status) || fail "status: $out"
grep -q "daemon:       running" <<<"$out" || fail "status does not show the daemon: $out"
out=$(run search --format json 宿泊費 上限) || fail "search through the daemon: $out"
grep -q '出張旅費_sjis.txt' <<<"$out" || fail "search through the daemon: $out"
grep -q 'op=search' "$cache"/*/daemon.log || fail "the daemon did not answer the search: $(cat "$cache"/*/daemon.log)"
set +e
out=$(run index watch 2>&1); code=$?
set -e
[[ $code == 3 ]] && grep -q "already running" <<<"$out" || fail "a second daemon: exit $code: $out"
printf '# 追加\r\n\r\n会議室の鍵は守衛室で受け取る。\r\n' >"$docs/追加メモ.md"
out=$(run index build 2>&1) || fail "index build while the daemon runs: $out"
grep -q "keeps this index" <<<"$out" || fail "index build did not ask the daemon: $out"
out=$(run search --mode fulltext --format files 守衛室) || fail "search after the build: $out"
grep -q '追加メモ.md' <<<"$out" || fail "the file written before the build is not found: $out"

step "index stop"
out=$(run index stop) || fail "stop: $out"
grep -q "daemon stopped" <<<"$out" || fail "stop printed: $out"
daemon_up=0
out=$(run index status) || fail "status: $out"
grep -q "daemon:       not running" <<<"$out" || fail "the daemon still runs: $out"

step "skill install and the Codex plugin"
# Wine sets %USERPROFILE% itself, so the folders are named.
for a in claude codex; do
  out=$(run skill install --$a "$(winpath "$work/home/.$a/skills")" 2>&1) || fail "skill install: $out"
  [[ -s "$work/home/.$a/skills/lwr-local-web-research/SKILL.md" ]] || fail "no SKILL.md for $a: $out"
done
out=$(run skill plugin "$(winpath "$work/plugin")" 2>&1) || fail "skill plugin: $out"
[[ -s "$work/plugin/.codex-plugin/plugin.json" && -s "$work/plugin/.mcp.json" ]] || fail "skill plugin wrote: $out"
step "ok"
