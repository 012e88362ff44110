#!/usr/bin/python3
"""Writes the PDF fixtures of lwr's reading-order tests into a folder
(default: this one): 就業規則_二段組.pdf with python3-reportlab (a CID
font that needs poppler-data: a heading justified by placing each
character, a paragraph wrapped mid-word, a table, a page in two columns),
and 就業規則_Word.pdf, a Word document (python3-docx: a heading with
distributed alignment, a table, a section in two columns) that
LibreOffice (soffice, libreoffice-writer-nogui) turns into a PDF as Word
would; without soffice that one is left as it is."""
import os
import shutil
import subprocess
import sys
import tempfile

out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
os.makedirs(out, exist_ok=True)
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas
pdfmetrics.registerFont(UnicodeCIDFont("HeiseiMin-W3"))
F="HeiseiMin-W3"
W,H=595,842
def spread(c, text, x0, x1, y, size):
    # a heading justified across x0..x1: each character placed on its own
    n=len(text)
    step=(x1-x0-size)/(n-1)
    for i,ch in enumerate(text):
        c.drawString(x0+i*step, y, ch)
c=canvas.Canvas(os.path.join(out, "就業規則_二段組.pdf"), pagesize=(W,H))
c.setFont(F,16)
c.drawCentredString(W/2, 790, "就業規則")
c.setFont(F,12)
spread(c, "第１章　総　則", 230, 365, 750, 12)
c.setFont(F,10.5)
c.drawString(72, 720, "（目的）")
lines=["第１条　この規則は、株式会社サンプルの従業員の服務規律及び労働条件その他の就業に関",
       "する事項を定めるものである。",
       "２　この規則に定めのない事項は、労働基準法その他の法令の定めるところによる。"]
y=704
for l in lines:
    c.drawString(72,y,l); y-=16
c.drawString(72, y-8, "（適用範囲）"); y-=24
c.drawString(72,y,"第２条　この規則は、会社に雇用されるすべての従業員に適用する。")
y-=32
for row in [["区分","日当","宿泊料"],["役員","3,000円","15,000円"],["一般社員","2,000円","12,000円"],["嘱託","1,500円","10,000円"]]:
    for k,v in enumerate(row): c.drawString(72+150*k, y, v)
    y-=16
c.showPage()
# page 2: two columns
c.setFont(F,12)
spread(c, "第９章　雑　則", 230, 365, 790, 12)
c.setFont(F,10.5)
left=["（改廃）","第６０条　この規則の改廃は、従業員の","過半数を代表する者の意見を聴いて行う。","（附則）","この規則は、２０２４年４月１日から施行","する。"]
right=["（届出）","第６１条　会社は、この規則を変更した","ときは、所轄の労働基準監督署長に届け","出る。","（特例）","第６２条　特別の事情があるときは、別に","定める。"]
for i,l in enumerate(left): c.drawString(72, 750-16*i, l)
for i,l in enumerate(right): c.drawString(310, 750-16*i, l)
c.showPage()
c.save()

# The Word document, turned into a PDF by LibreOffice.
import docx
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.enum.section import WD_SECTION
from docx.oxml.ns import qn
from docx.oxml import OxmlElement
from docx.shared import Pt
d=docx.Document()
st=d.styles['Normal']; st.font.name='IPAMincho'; st.font.size=Pt(10.5)
st.element.rPr.rFonts.set(qn('w:eastAsia'),'IPAMincho')
def p(text, align=None, indent=None):
    para=d.add_paragraph(text)
    if align=='dist':
        para.alignment=WD_ALIGN_PARAGRAPH.DISTRIBUTE
        para.paragraph_format.left_indent=Pt(150); para.paragraph_format.right_indent=Pt(150)
    if align=='center': para.alignment=WD_ALIGN_PARAGRAPH.CENTER
    return para
p("就業規則", 'center')
p("第１章　総則", 'dist')
p("（目的）")
p("第１条　この規則は、株式会社サンプルの従業員の服務規律及び労働条件その他の就業に関する事項を定めるものである。この規則に定めのない事項は、労働基準法その他の法令の定めるところによる。")
p("（適用範囲）")
p("第２条　この規則は、会社に雇用されるすべての従業員に適用する。ただし、パートタイム従業員の就業に関する事項については、別に定めるところによる。")
p("（旅費）")
t=d.add_table(rows=3, cols=3)
for r,row in enumerate([["区分","日当","宿泊料"],["役員","3,000円","15,000円"],["一般社員","2,000円","12,000円"]]):
    for c,v in enumerate(row): t.cell(r,c).text=v
# two columns from here
sec=d.add_section(WD_SECTION.CONTINUOUS)
cols=sec._sectPr.xpath('./w:cols')
c=cols[0] if cols else OxmlElement('w:cols')
c.set(qn('w:num'),'2'); c.set(qn('w:space'),'425')
if not cols: sec._sectPr.append(c)
p("第９章　雑則", 'dist').paragraph_format.left_indent=Pt(20)
p("（改廃）")
p("第６０条　この規則の改廃は、従業員の過半数を代表する者の意見を聴いて行い、所轄の労働基準監督署長に届け出るものとする。")
from docx.enum.text import WD_BREAK
d.paragraphs[-1].add_run().add_break(WD_BREAK.COLUMN)
p("（届出）")
p("第６１条　会社は、この規則を変更したときは、変更後の規則を従業員に周知するとともに、その写しを各事業場に備え付ける。")
p("（特例）")
p("第６２条　特別の事情があるときは、この規則の定めにかかわらず、会社と従業員代表との協議により別に定めることができる。")
p("附則　この規則は、２０２４年４月１日から施行する。")
if shutil.which("soffice"):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "就業規則_Word.docx")
        d.save(src)
        subprocess.run(["soffice", "--headless", "--convert-to", "pdf", "--outdir", tmp, src], check=True, capture_output=True)
        shutil.copy(os.path.join(tmp, "就業規則_Word.pdf"), os.path.join(out, "就業規則_Word.pdf"))
