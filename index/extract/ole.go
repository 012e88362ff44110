package extract

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf16"
)

// oleSignature starts an OLE compound file (the old binary Office
// formats, and the container of a password-protected Office file).
var oleSignature = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// oleKind says what an OLE compound file holds, by the names of its
// streams: "encrypted" (an Office Open XML package protected by a
// password: EncryptionInfo and EncryptedPackage), "doc", "xls" or "ppt"
// (Word, Excel or PowerPoint 97–2003), or "" (another kind, or a
// directory that cannot be read).
func oleKind(data []byte) string {
	names := oleStreams(data)
	has := func(n string) bool { _, ok := names[strings.ToLower(n)]; return ok }
	switch {
	case has("EncryptedPackage") && has("EncryptionInfo"):
		return "encrypted"
	case has("WordDocument"):
		return "doc"
	case has("Workbook") || has("Book"):
		return "xls"
	case has("PowerPoint Document"):
		return "ppt"
	}
	return ""
}

// oleError is the error of an OLE compound file that was named as an
// Office Open XML file (ext, with the dot).
func oleError(data []byte, ext string) error {
	switch k := oleKind(data); k {
	case "encrypted":
		return fmt.Errorf("%w: it is protected by a password; remove the password (File > Info > Protect) to index it", ErrEncrypted)
	case "doc", "xls", "ppt":
		what := oldFormats["."+k]
		return fmt.Errorf("%w: it is a %s file named %s; save it as .%sx to index it", ErrOldFormat, what, ext, k)
	}
	return fmt.Errorf("%w: an OLE compound file that is neither an Office document nor a password-protected one", ErrBroken)
}

// oleStreams reads the names in an OLE compound file's directory (lower
// case), following the directory's sector chain through the FAT that the
// header lists; it reads no more sectors than the file has.
func oleStreams(data []byte) map[string]bool {
	out := map[string]bool{}
	if len(data) < 512 || !bytes.HasPrefix(data, oleSignature) {
		return out
	}
	shift := binary.LittleEndian.Uint16(data[30:])
	if shift != 9 && shift != 12 {
		return out
	}
	size := 1 << shift
	sector := func(n uint32) []byte {
		off := (int64(n) + 1) * int64(size)
		if n >= 0xFFFFFFFA || off+int64(size) > int64(len(data)) {
			return nil
		}
		return data[off : off+int64(size)]
	}
	// The FAT's sectors: 109 in the header, then the DIFAT chain.
	var fatSectors []uint32
	for i := 0; i < 109; i++ {
		if s := binary.LittleEndian.Uint32(data[76+4*i:]); s < 0xFFFFFFFA {
			fatSectors = append(fatSectors, s)
		}
	}
	maxSectors := len(data) / size
	next := binary.LittleEndian.Uint32(data[68:])
	for n := 0; next < 0xFFFFFFFA && n < maxSectors; n++ {
		b := sector(next)
		if b == nil {
			break
		}
		for i := 0; i+4 < len(b); i += 4 {
			if s := binary.LittleEndian.Uint32(b[i:]); s < 0xFFFFFFFA {
				fatSectors = append(fatSectors, s)
			}
		}
		next = binary.LittleEndian.Uint32(b[len(b)-4:])
	}
	fat := func(n uint32) uint32 {
		per := uint32(size / 4)
		i := n / per
		if int(i) >= len(fatSectors) {
			return 0xFFFFFFFE
		}
		b := sector(fatSectors[i])
		if b == nil {
			return 0xFFFFFFFE
		}
		return binary.LittleEndian.Uint32(b[(n%per)*4:])
	}
	dir := binary.LittleEndian.Uint32(data[48:])
	for n := 0; dir < 0xFFFFFFFA && n < maxSectors; n++ {
		b := sector(dir)
		if b == nil {
			break
		}
		for e := 0; e+128 <= len(b); e += 128 {
			l := int(binary.LittleEndian.Uint16(b[e+64:]))
			if l < 2 || l > 64 {
				continue
			}
			u := make([]uint16, 0, l/2-1)
			for i := 0; i < l-2; i += 2 {
				u = append(u, binary.LittleEndian.Uint16(b[e+i:]))
			}
			out[strings.ToLower(string(utf16.Decode(u)))] = true
		}
		dir = fat(dir)
	}
	return out
}
