#!/usr/bin/python3
"""Writes a corpus of Office and PDF documents for make bench: Japanese
text taken from the bench corpus' man pages, as N Word files (headings and
paragraphs), N Excel workbooks (a row per line), N PDFs (pages of lines, a
CID font) and N/2 PowerPoint decks. Needs python3-docx, python3-openpyxl
and python3-reportlab.

usage: make-office-corpus.py CORPUS OUT [N]"""
import glob
import os
import sys
import zipfile
from xml.sax.saxutils import escape

import docx
import openpyxl
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

src, out = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 100
os.makedirs(out, exist_ok=True)
pages = sorted(glob.glob(os.path.join(src, "manpages-ja", "**", "*.txt"), recursive=True))
pdfmetrics.registerFont(UnicodeCIDFont("HeiseiKakuGo-W5"))


def texts():
    for p in pages:
        lines = [l.strip() for l in open(p, encoding="utf-8", errors="replace") if l.strip()]
        lines = [l for l in lines if any(ord(c) > 0x3000 for c in l)][:120]
        if len(lines) >= 20:
            yield os.path.splitext(os.path.basename(p))[0], lines


gen = texts()
for i in range(n):
    name, lines = next(gen)
    d = docx.Document()
    d.add_heading(name, level=1)
    for k, l in enumerate(lines):
        if k % 15 == 0:
            d.add_heading(l[:40], level=2)
        else:
            d.add_paragraph(l)
    d.save(os.path.join(out, f"w{i:03d}_{name}.docx"))

    name, lines = next(gen)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = name[:30]
    for k, l in enumerate(lines):
        ws.append([k + 1, l, len(l)])
    wb.save(os.path.join(out, f"x{i:03d}_{name}.xlsx"))

    name, lines = next(gen)
    c = canvas.Canvas(os.path.join(out, f"p{i:03d}_{name}.pdf"))
    for k in range(0, len(lines), 30):
        c.setFont("HeiseiKakuGo-W5", 10)
        y = 800
        for l in lines[k:k + 30]:
            c.drawString(40, y, l[:50])
            y -= 24
        c.showPage()
    c.save()

    if i % 2 == 0:
        name, lines = next(gen)
        ns = ('xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
              'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
              'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"')
        with zipfile.ZipFile(os.path.join(out, f"s{i:03d}_{name}.pptx"), "w", zipfile.ZIP_DEFLATED) as z:
            rels, ids = [], []
            for s in range(0, len(lines), 10):
                k = s // 10 + 1
                body = "".join("<a:p><a:r><a:t>%s</a:t></a:r></a:p>" % escape(l) for l in lines[s:s + 10])
                z.writestr(f"ppt/slides/slide{k}.xml", f'<p:sld {ns}><p:cSld><p:spTree><p:sp><p:txBody>{body}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>')
                rels.append(f'<Relationship Id="rId{k}" Type="slide" Target="slides/slide{k}.xml"/>')
                ids.append(f'<p:sldId id="{255 + k}" r:id="rId{k}"/>')
            z.writestr("ppt/_rels/presentation.xml.rels", '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' + "".join(rels) + "</Relationships>")
            z.writestr("ppt/presentation.xml", f'<p:presentation {ns}><p:sldIdLst>' + "".join(ids) + "</p:sldIdLst></p:presentation>")
print(f"{len(os.listdir(out))} files in {out}")
