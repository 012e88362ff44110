#!/usr/bin/python3
"""Writes the Office and PDF fixtures of lwr's extract tests into a folder
(default: this one), with Debian's python3-docx, python3-openpyxl and
python3-reportlab (its built-in Japanese CID font). The .pptx is written
as the zip it is."""
import datetime
import os
import sys
import zipfile

out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
os.makedirs(out, exist_ok=True)

# Word: headings, paragraphs, a line break, a tab, a table.
import docx

d = docx.Document()
d.add_heading("旅費規程", level=1)
d.add_paragraph("この規程は出張旅費の支給について定める。")
d.add_heading("第3条 宿泊料", level=2)
p = d.add_paragraph("宿泊料の上限は一泊12,000円とする。")
p.add_run().add_break()
p.add_run("ただし特別区は14,000円。")
d.add_paragraph("区分\t上限額")
t = d.add_table(rows=2, cols=2)
t.cell(0, 0).text = "日当"
t.cell(0, 1).text = "2,000円"
t.cell(1, 0).text = "交通費"
t.cell(1, 1).text = "実費"
d.add_heading("第4条 申請", level=2)
d.add_paragraph("出張の申請は三日前までに行う。")
d.save(os.path.join(out, "旅費規程.docx"))

# Excel: two sheets, a date, a number, an empty row between rows.
import openpyxl

wb = openpyxl.Workbook()
ws = wb.active
ws.title = "単価表"
ws.append(["品目", "単価", "改定日"])
ws.append(["コピー用紙", 450, datetime.date(2026, 4, 1)])
ws.append([])
ws.append(["トナー", 12800, datetime.date(2025, 10, 1)])
ws2 = wb.create_sheet("備考")
ws2["A12"] = "単価は税抜きで記載する。"
wb.save(os.path.join(out, "単価表.xlsx"))

# Excel as a form is kept: a header row with a cell left empty, yen and
# percent formats, a Japanese date, a note on a cell, a chart, a hidden
# sheet.
from openpyxl.comments import Comment
from openpyxl.chart import BarChart, Reference

wb = openpyxl.Workbook()
ws = wb.active
ws.title = "経費申請"
ws.append(["費目", "金額", "数量", "備考", "税率"])
ws.append(["宿泊費", 60000, None, "領収書あり", 0.1])
ws.append(["交通費", 12340, 2, None, 0.1])
ws.append(["申請日", datetime.date(2026, 4, 1)])
for row in ws["B2:B3"]:
    row[0].number_format = '"¥"#,##0'
for row in ws["E2:E3"]:
    row[0].number_format = "0%"
ws["B4"].number_format = '[$-411]ggge"年"m"月"d"日"'
ws["A2"].comment = Comment("上限は一泊12,000円×5泊", "経理部")
chart = BarChart()
chart.title = "費目別の金額"
chart.add_data(Reference(ws, min_col=2, min_row=1, max_row=3), titles_from_data=True)
chart.set_categories(Reference(ws, min_col=1, min_row=2, max_row=3))
ws.add_chart(chart, "G2")
hidden = wb.create_sheet("計算用")
hidden["A1"] = "換算レート"
hidden.sheet_state = "hidden"
wb.save(os.path.join(out, "経費申請.xlsx"))

# Word as forms are written: a text box in the middle of a paragraph (the
# DrawingML shape and, for older Word, its VML fallback), a header, a
# footer, and headings typed as text (no heading styles).
from docx.oxml import parse_xml

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
box_ns = (W + ' xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"'
          ' xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"'
          ' xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"'
          ' xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"'
          ' xmlns:v="urn:schemas-microsoft-com:vml"')

def text_box(text):
    body = '<w:txbxContent><w:p><w:r><w:t>%s</w:t></w:r></w:p></w:txbxContent>' % text
    return parse_xml(
        '<w:r %s><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>'
        '<wp:anchor distT="0" distB="0" distL="114300" distR="114300" simplePos="0" relativeHeight="251659264" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">'
        '<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH>'
        '<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="2000000" cy="500000"/>'
        '<wp:wrapSquare wrapText="bothSides"/><wp:docPr id="1" name="テキスト ボックス 1"/>'
        '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
        '<wps:wsp><wps:cNvSpPr txBox="1"/><wps:spPr/><wps:txbx>%s</wps:txbx><wps:bodyPr/></wps:wsp>'
        '</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>'
        '<mc:Fallback><w:pict><v:shape id="テキスト ボックス 1" style="position:absolute;width:157.5pt;height:39.4pt">'
        '<v:textbox>%s</v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>' % (box_ns, body, body))

d = docx.Document()
d.add_paragraph("出張申請書")
d.add_paragraph("第1章　総則")
d.add_paragraph("第1条（目的）この様式は出張の申請に用いる。")
p = d.add_paragraph("申請者は、")
p._p.append(text_box("記入例は裏面を参照すること"))
p.add_run("所属長の承認を得て提出する。")
d.add_paragraph("第2条（提出先）申請書は総務課に提出する。")
d.sections[0].header.paragraphs[0].text = "様式第3号"
d.sections[0].footer.paragraphs[0].text = "総務課"
d.save(os.path.join(out, "出張申請書.docx"))

# PDF: two pages of Japanese text in a CID font; a PDF with no text; an
# encrypted one; a broken one.
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas
from reportlab.lib import pdfencrypt

pdfmetrics.registerFont(UnicodeCIDFont("HeiseiKakuGo-W5"))

def text_pdf(path, pages, encrypt=None):
    c = canvas.Canvas(path, encrypt=encrypt)
    for lines in pages:
        c.setFont("HeiseiKakuGo-W5", 12)
        y = 780
        for l in lines:
            c.drawString(72, y, l)
            y -= 20
        c.showPage()
    c.save()

text_pdf(os.path.join(out, "情報セキュリティ研修.pdf"), [
    ["情報セキュリティ研修", "第1章 パスワード"],
    ["第2章 USBメモリ", "USBメモリの使用は原則として禁止する。", "パスワードは12文字以上とする。"],
])
text_pdf(os.path.join(out, "暗号化.pdf"), [["秘密の文書"]], encrypt=pdfencrypt.StandardEncryption("pw", canPrint=0))
c = canvas.Canvas(os.path.join(out, "スキャン.pdf"))
c.rect(72, 72, 300, 300, fill=1)
c.showPage()
c.save()
with open(os.path.join(out, "壊れた.pdf"), "wb") as f:
    f.write(b"%PDF-1.4\n1 0 obj garbage that is not a PDF\n")

# PowerPoint: two slides (the second listed first in the zip, to check the
# order comes from the presentation), a title and a bulleted body each.
ns = ('xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
      'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"')

def slide(paras):
    body = "".join('<a:p><a:r><a:t>%s</a:t></a:r></a:p>' % p for p in paras)
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld %s><p:cSld><p:spTree>'
            '<p:sp><p:txBody>%s</p:txBody></p:sp></p:spTree></p:cSld></p:sld>' % (ns, body))

with zipfile.ZipFile(os.path.join(out, "新人研修.pptx"), "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("[Content_Types].xml", '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
    z.writestr("ppt/slides/slide2.xml", slide(["第2部 経費精算", "領収書は一か月以内に提出する。"]))
    z.writestr("ppt/slides/slide1.xml", slide(["新人研修", "初日は人事部で受付を行う。"]))
    z.writestr("ppt/_rels/presentation.xml.rels",
               '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
               '<Relationship Id="rId7" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide2.xml"/>'
               '<Relationship Id="rId6" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide1.xml"/>'
               '</Relationships>')
    z.writestr("ppt/presentation.xml",
               '<?xml version="1.0" encoding="UTF-8"?><p:presentation %s><p:sldIdLst>'
               '<p:sldId id="256" r:id="rId6"/><p:sldId id="257" r:id="rId7"/></p:sldIdLst></p:presentation>' % ns)

# Old binary formats: the OLE signature is enough to be refused.
with open(os.path.join(out, "古い規程.doc"), "wb") as f:
    f.write(bytes([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) + b"\0" * 504)
