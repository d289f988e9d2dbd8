"""E-books and other documents built inside the tests: an EPUB is a zip of XHTML, FB2 one XML file, CBZ a zip of
images, XPS made by MuPDF from a PDF."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pymupdf

CHAPTERS = (
    ("Harbour Lights", "The keeper counted the pelicans along the breakwater every morning. " * 40),
    ("The Storm Ledger", "Rain ledgers listed each squall with its pressure reading in millibars. " * 40),
    ("Cormorant Season", "Cormorants returned in spring and nested on the old pilings. " * 40),
)

CONTAINER = """<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""


def write_epub(path: Path, title: str = "The Lighthouse Almanac",
               chapters: tuple[tuple[str, str], ...] = CHAPTERS) -> Path:
    """An EPUB 2 book: one XHTML file per chapter, an NCX table of contents naming each chapter."""
    items = "".join(f'<item id="c{i}" href="c{i}.xhtml" media-type="application/xhtml+xml"/>'
                    for i in range(len(chapters)))
    spine = "".join(f'<itemref idref="c{i}"/>' for i in range(len(chapters)))
    opf = f"""<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{title}</dc:title>
<dc:identifier id="id">test-book</dc:identifier><dc:language>en</dc:language></metadata>
<manifest>{items}<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/></manifest>
<spine toc="ncx">{spine}</spine></package>"""
    points = "".join(f'<navPoint id="n{i}" playOrder="{i + 1}"><navLabel><text>{name}</text></navLabel>'
                     f'<content src="c{i}.xhtml"/></navPoint>' for i, (name, _) in enumerate(chapters))
    ncx = f"""<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><head/>
<docTitle><text>{title}</text></docTitle><navMap>{points}</navMap></ncx>"""
    with zipfile.ZipFile(path, "w") as book:
        book.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        book.writestr("META-INF/container.xml", CONTAINER)
        book.writestr("OEBPS/content.opf", opf)
        book.writestr("OEBPS/toc.ncx", ncx)
        for i, (name, body) in enumerate(chapters):
            book.writestr(f"OEBPS/c{i}.xhtml", '<?xml version="1.0" encoding="UTF-8"?>\n'
                          '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>'
                          f"{name}</title></head><body><h1>{name}</h1><p>{body}</p></body></html>")
    return path


def write_fb2(path: Path, chapters: tuple[tuple[str, str], ...] = CHAPTERS) -> Path:
    """A FictionBook 2 file with one section per chapter."""
    sections = "".join(f"<section><title><p>{name}</p></title><p>{body}</p></section>" for name, body in chapters)
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n'
                    '<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0">'
                    "<description><title-info><book-title>The Lighthouse Almanac</book-title></title-info>"
                    f"</description><body>{sections}</body></FictionBook>", encoding="utf-8")
    return path


def write_cbz(path: Path, pages: int = 3) -> Path:
    """A comic book: a zip of PNG pages, each a drawn panel with a caption."""
    with zipfile.ZipFile(path, "w") as book:
        for n in range(pages):
            doc = pymupdf.open()
            page = doc.new_page(width=300, height=400)
            page.insert_text((40, 200), f"Panel {n + 1}", fontsize=30)
            book.writestr(f"{n + 1:03d}.png", page.get_pixmap(dpi=72).tobytes("png"))
            doc.close()
    return path


XPS_TYPES = ('<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
             'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
             'relationships+xml"/><Default Extension="fdseq" ContentType="application/vnd.ms-package.xps-fixed'
             'documentsequence+xml"/><Default Extension="fdoc" ContentType="application/vnd.ms-package.xps-fixed'
             'document+xml"/><Default Extension="fpage" ContentType="application/vnd.ms-package.xps-fixedpage+xml"/>'
             '<Default Extension="otf" ContentType="application/vnd.ms-opentype"/></Types>')
XPS_RELS = ('<?xml version="1.0" encoding="utf-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
            '2006/relationships"><Relationship Type="http://schemas.microsoft.com/xps/2005/06/fixedrepresentation" '
            'Target="/FixedDocSeq.fdseq" Id="R0"/></Relationships>')
XPS_NS = "http://schemas.microsoft.com/xps/2005/06"


def write_xps(path: Path, texts: tuple[str, ...] = ("Quarterly tide tables", "Appendix of soundings")) -> Path:
    """An XPS document by hand (MuPDF reads XPS but does not write it): one fixed page per text, set in MuPDF's
    own Helvetica replacement, embedded as the package's font."""
    with zipfile.ZipFile(path, "w") as package:
        package.writestr("[Content_Types].xml", XPS_TYPES)
        package.writestr("_rels/.rels", XPS_RELS)
        package.writestr("FixedDocSeq.fdseq", f'<FixedDocumentSequence xmlns="{XPS_NS}"><DocumentReference '
                         'Source="/Documents/1/FixedDoc.fdoc"/></FixedDocumentSequence>')
        pages = "".join(f'<PageContent Source="/Documents/1/Pages/{i + 1}.fpage"/>' for i in range(len(texts)))
        package.writestr("Documents/1/FixedDoc.fdoc", f'<FixedDocument xmlns="{XPS_NS}">{pages}</FixedDocument>')
        package.writestr("Resources/font.otf", pymupdf.Font("helv").buffer)
        for i, text in enumerate(texts):
            package.writestr(f"Documents/1/Pages/{i + 1}.fpage",
                             f'<FixedPage xmlns="{XPS_NS}" Width="816" Height="1056" xml:lang="en"><Glyphs '
                             'OriginX="96" OriginY="120" FontRenderingEmSize="20" FontUri="/Resources/font.otf" '
                             f'UnicodeString="{text}" Fill="#FF000000"/></FixedPage>')
    return path


MOBI_RECORD = 4096  # PalmDOC text records hold at most this many bytes of the book's text
MOBI_HEADER = 232  # the MOBI header's length in a version 6 file (the fields written here)
NO_INDEX = 0xFFFFFFFF  # "no such record" in the MOBI header


def write_mobi(path: Path, title: str = "The Lighthouse Almanac", author: str = "A. Keeper",
               chapters: tuple[tuple[str, str], ...] = CHAPTERS) -> Path:
    """A Mobipocket book as the MobileRead wiki describes the format (wiki.mobileread.com/wiki/PDB, /wiki/MOBI):
    a PalmDB header ("BOOKMOBI") and record list; record 0 with the PalmDOC header (compression 1: none), the
    MOBI header (UTF-8, version 6), an EXTH block (author, title) and the full name; the book's HTML (one <h1>
    per chapter, a page break between them) cut into uncompressed 4096-byte text records; an end-of-file
    record. No trailing entries on the text records (extra data flags 0), no index, images or DRM."""
    import struct

    parts = [f"<h1>{name}</h1><p>{body}</p>" for name, body in chapters]
    html = (f"<html><head><title>{title}</title></head><body>" + "<mbp:pagebreak/>".join(parts)
            + "</body></html>").encode("utf-8")
    texts = [html[i:i + MOBI_RECORD] for i in range(0, len(html), MOBI_RECORD)]
    eof_record = len(texts) + 1
    exth_records = b"".join(struct.pack(">II", kind, 8 + len(data)) + data
                            for kind, data in ((100, author.encode()), (503, title.encode())))
    exth = b"EXTH" + struct.pack(">II", 12 + len(exth_records), 2) + exth_records
    exth += b"\0" * (-len(exth) % 4)
    name = title.encode("utf-8")
    name_offset = 16 + MOBI_HEADER + len(exth)
    palmdoc = struct.pack(">HHIHHHH", 1, 0, len(html), len(texts), MOBI_RECORD, 0, 0)
    mobi = bytearray(MOBI_HEADER)
    struct.pack_into(">4sIIIII", mobi, 0, b"MOBI", MOBI_HEADER, 2, 65001, 0x5EED, 6)  # type 2: a book
    struct.pack_into(">10I", mobi, 24, *([NO_INDEX] * 10))  # no dictionary or extra indexes
    struct.pack_into(">IIIIIIIIIIIII", mobi, 64, eof_record, name_offset, len(name), 9, 0, 0, 6, eof_record,
                     0, 0, 0, 0, 0x40)  # first non-book record, full name, English, min version, no images,
    # no Huffman tables, EXTH present
    struct.pack_into(">IIIII", mobi, 148, NO_INDEX, NO_INDEX, 0, 0, 0)  # no DRM
    struct.pack_into(">HHI", mobi, 176, 1, len(texts), 1)  # first and last content records
    struct.pack_into(">IIII", mobi, 184, NO_INDEX, 1, NO_INDEX, 1)  # no FCIS, no FLIS
    struct.pack_into(">IIIIII", mobi, 208, NO_INDEX, 0, NO_INDEX, NO_INDEX, 0, NO_INDEX)  # extra data flags 0
    record0 = palmdoc + bytes(mobi) + exth + name + b"\0" * (4 - len(name) % 4)
    records = [record0, *texts, b"\xe9\x8e\r\n"]
    header_size = 78 + 8 * len(records) + 2
    offsets, at = [], header_size
    for record in records:
        offsets.append(at)
        at += len(record)
    db_name = title.replace(" ", "_").encode("ascii", "replace")[:31]
    header = struct.pack(">32sHHIIIIII4s4sIIH", db_name, 0, 0, 0x5EED0000, 0x5EED0000, 0, 0, 0, 0, b"BOOK", b"MOBI",
                         2 * len(records), 0, len(records))
    listing = b"".join(struct.pack(">II", offset, 2 * i) for i, offset in enumerate(offsets))  # attributes 0
    path.write_bytes(header + listing + b"\0\0" + b"".join(records))
    return path
