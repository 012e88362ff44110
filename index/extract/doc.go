// Package extract turns the documents people keep besides plain text —
// PDF, Word (.docx), Excel (.xlsx) and PowerPoint (.pptx) — into lines of
// text, each with where it stands in the document (a PDF page, a sheet
// and row, a slide, the Word heading it is under), and caches what it
// extracted by the content's SHA-256. It refuses what it cannot read in
// one sentence: an encrypted or broken file, a PDF without a text layer,
// an extraction that came out garbled, the old binary Office formats, and
// PDFs where Poppler's pdftotext is not installed (saying how to install
// it).
package extract
