#!/usr/bin/python3
"""Writes the PDF fixtures of lwr's reading-order tests into a folder
(default: this one): 就業規則_二段組.pdf with python3-reportlab (a CID
font that needs poppler-data: a heading justified by placing each
character, a paragraph wrapped mid-word, a table, a page in two columns);
社内報.pdf, also with reportlab (two columns whose lines wrap before a
number, a bordered text box left of a paragraph with a line pitch of its
own); 就業規則_Word.pdf, a Word document (python3-docx: a heading with
distributed alignment, a table, a section in two columns) and
旅費規程_枠.pdf, a LibreOffice document (numbers and Latin words set
apart from Japanese by the office's automatic spacing, text boxes the
text flows around, right and left of it), that LibreOffice (soffice,
libreoffice-writer-nogui) turns into PDFs as Word would; without soffice
those two are left as they are."""
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

# A newsletter: two columns whose lines wrap before a number; a text box
# with a border left of a paragraph, its lines 13 points apart, the
# paragraph's 16.
c=canvas.Canvas(os.path.join(out, "社内報.pdf"), pagesize=(W,H))
c.setFont(F,16)
c.drawCentredString(W/2, 790, "社内報　秋号")
c.setFont(F,10.5)
left=["今号では在宅勤務手当の新設を紹介","する。在宅勤務手当は月額","5,000円とし、在宅勤務が月10日以","上の者に支給する。申請は所属長を","経て人事部に提出する。"]
right=["健康診断の日程を案内する。定期健","康診断は10月15日から","10月31日までの間に本社の会議室で","実施する。受診しない者は産業医の","面談を受ける。"]
for i,(l,r) in enumerate(zip(left,right)):
    c.drawString(72, 750-16*i, l); c.drawString(310, 750-16*i, r)
c.drawString(72, 640, "（在宅勤務の記録）")
box=["記入例：勤務日","ごとに開始と終","了の時刻を書く。"]
c.rect(68, 590, 88, 46)
for i,l in enumerate(box): c.drawString(72, 624-13*i, l)
body=["在宅勤務をした者は、勤務日ごとに","開始と終了の時刻を勤務表に記録し、","月末に所属長へ提出する。記録のない","日は在宅勤務手当の対象としない。"]
for i,l in enumerate(body): c.drawString(166, 624-16*i, l)
c.drawString(72, 545, "この社内報に関する問い合わせは、広報部まで連絡すること。")
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

# A LibreOffice document: numbers and Latin words next to Japanese (the
# office sets them apart by its automatic spacing), a typed space, text
# boxes (frames) the text flows around, right and left of it.
FODT = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:font-face-decls><style:font-face style:name="IPAMincho" svg:font-family="IPAMincho"/></office:font-face-decls>
 <office:styles>
  <style:style style:name="Standard" style:family="paragraph">
   <style:text-properties style:font-name="IPAMincho" style:font-name-asian="IPAMincho" fo:font-size="10.5pt" style:font-size-asian="10.5pt"/>
  </style:style>
 </office:styles>
 <office:automatic-styles>
  <style:style style:name="Ctr" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:text-align="center"/></style:style>
  <style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="2cm" fo:margin-bottom="2cm" fo:margin-left="2cm" fo:margin-right="2cm"/></style:page-layout>
  <style:style style:name="fr1" style:family="graphic"><style:graphic-properties style:wrap="parallel" style:vertical-pos="top" style:horizontal-pos="right"/></style:style>
  <style:style style:name="fr2" style:family="graphic"><style:graphic-properties style:wrap="parallel" style:vertical-pos="top" style:horizontal-pos="left"/></style:style>
 </office:automatic-styles>
 <office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1"/></office:master-styles>
 <office:body><office:text>
  <text:p text:style-name="Ctr">国内出張旅費規程</text:p>
  <text:p text:style-name="Ctr">令和7年4月1日施行</text:p>
  <text:p text:style-name="Standard">第１章　総　　則</text:p>
  <text:p text:style-name="Standard">第1条（目的）</text:p>
  <text:p text:style-name="Standard">この規程は、従業員が業務のため国内に出張する場合の旅費の支給に関し必要な事項を定める。<draw:frame draw:style-name="fr1" draw:name="Frame1" text:anchor-type="paragraph" svg:width="6cm" svg:height="2cm"><draw:text-box><text:p text:style-name="Standard">注意：海外出張は別規程（海外出張旅費規程）による。</text:p></draw:text-box></draw:frame></text:p>
  <text:p text:style-name="Standard">第2条（日当）</text:p>
  <text:p text:style-name="Standard">日当は、出張1日につき一般従業員3,000円、課長以上4,000円とする。様式は Excel で作成し、申請はWebフォームで行う。</text:p>
  <text:p text:style-name="Standard">第3条（宿泊料）</text:p>
  <text:p text:style-name="Standard">宿泊料は、1泊につき次の額を上限として実費を支給する。</text:p>
  <table:table table:name="T1">
   <table:table-column table:number-columns-repeated="2"/>
   <table:table-row><table:table-cell><text:p>区分</text:p></table:table-cell><table:table-cell><text:p>上限額</text:p></table:table-cell></table:table-row>
   <table:table-row><table:table-cell><text:p>一般従業員</text:p></table:table-cell><table:table-cell><text:p>12,000円</text:p></table:table-cell></table:table-row>
  </table:table>
  <text:p text:style-name="Standard">第4条（交通費）</text:p>
  <text:p text:style-name="Standard"><draw:frame draw:style-name="fr2" draw:name="Frame2" text:anchor-type="paragraph" svg:width="5cm" svg:height="2cm"><draw:text-box><text:p text:style-name="Standard">参考：新幹線の特急料金は別表第2による。</text:p></draw:text-box></draw:frame>交通費は、最も経済的かつ合理的な経路および方法により計算した実費を支給する。新幹線の利用は片道100km以上の場合に限り、出張の承認番号は1111とする。</text:p>
  <text:p text:style-name="Standard">第5条（改廃）</text:p>
  <text:p text:style-name="Standard">この規程の改廃は、取締役会の決議による。</text:p>
 </office:text></office:body>
</office:document>
"""
if shutil.which("soffice"):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "旅費規程_枠.fodt")
        with open(src, "w", encoding="utf-8") as f:
            f.write(FODT)
        subprocess.run(["soffice", "--headless", "--convert-to", "pdf", "--outdir", tmp, src], check=True, capture_output=True)
        shutil.copy(os.path.join(tmp, "旅費規程_枠.pdf"), os.path.join(out, "旅費規程_枠.pdf"))
