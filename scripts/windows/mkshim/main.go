// mkshim writes a minimal PE32+ DLL that contains only an export table whose
// entries are forwarders, e.g. bcryptprimitives.dll!ProcessPrng -> advapi32.SystemFunction036.
package main

import (
	"bytes"
	"encoding/binary"
	"os"
)

func main() {
	dllName := "bcryptprimitives.dll"
	exports := []struct{ name, fwd string }{{"ProcessPrng", "advapi32.SystemFunction036"}}
	const secRVA, fileAlign, secAlign = 0x1000, 0x200, 0x1000

	// ---- build export section content (RVA-relative to secRVA) ----
	var ed bytes.Buffer
	n := len(exports)
	dirSize := 40
	eatOff := dirSize
	enptOff := eatOff + 4*n
	ordOff := enptOff + 4*n
	strOff := ordOff + 2*n
	var strs bytes.Buffer
	addStr := func(s string) uint32 {
		off := uint32(strOff + strs.Len())
		strs.WriteString(s)
		strs.WriteByte(0)
		return secRVA + off
	}
	nameRVA := addStr(dllName)
	var fwdRVAs, nameRVAs []uint32
	for _, e := range exports { // names must be sorted; single entry
		nameRVAs = append(nameRVAs, addStr(e.name))
		fwdRVAs = append(fwdRVAs, addStr(e.fwd))
	}
	le := binary.LittleEndian
	w32 := func(v uint32) { binary.Write(&ed, le, v) }
	w16 := func(v uint16) { binary.Write(&ed, le, v) }
	w32(0)                        // Characteristics
	w32(0)                        // TimeDateStamp
	w16(0)                        // MajorVersion
	w16(0)                        // MinorVersion
	w32(nameRVA)                  // Name
	w32(1)                        // Base
	w32(uint32(n))                // NumberOfFunctions
	w32(uint32(n))                // NumberOfNames
	w32(secRVA + uint32(eatOff))  // AddressOfFunctions
	w32(secRVA + uint32(enptOff)) // AddressOfNames
	w32(secRVA + uint32(ordOff))  // AddressOfNameOrdinals
	for _, r := range fwdRVAs {
		w32(r)
	}
	for _, r := range nameRVAs {
		w32(r)
	}
	for i := range exports {
		w16(uint16(i))
	}
	ed.Write(strs.Bytes())
	edSize := ed.Len()
	raw := (edSize + fileAlign - 1) / fileAlign * fileAlign
	for ed.Len() < raw {
		ed.WriteByte(0)
	}

	// ---- headers ----
	var h bytes.Buffer
	dos := make([]byte, 64)
	dos[0], dos[1] = 'M', 'Z'
	le.PutUint32(dos[60:], 64)
	h.Write(dos)
	h.WriteString("PE\x00\x00")
	hw16 := func(v uint16) { binary.Write(&h, le, v) }
	hw32 := func(v uint32) { binary.Write(&h, le, v) }
	hw64 := func(v uint64) { binary.Write(&h, le, v) }
	// COFF
	hw16(0x8664) // AMD64
	hw16(1)      // sections
	hw32(0)
	hw32(0)
	hw32(0)
	hw16(0xF0)   // SizeOfOptionalHeader
	hw16(0x2022) // EXECUTABLE_IMAGE|LARGE_ADDRESS_AWARE|DLL
	// Optional header PE32+
	hw16(0x20B)
	h.WriteByte(14)
	h.WriteByte(0)
	hw32(0)           // SizeOfCode
	hw32(uint32(raw)) // SizeOfInitializedData
	hw32(0)           // SizeOfUninitializedData
	hw32(0)           // AddressOfEntryPoint (none)
	hw32(secRVA)      // BaseOfCode
	hw64(0x180000000) // ImageBase
	hw32(secAlign)    // SectionAlignment
	hw32(fileAlign)   // FileAlignment
	hw16(6)
	hw16(0) // OS version
	hw16(0)
	hw16(0) // image version
	hw16(6)
	hw16(0) // subsystem version
	hw32(0) // Win32VersionValue
	imgSize := secRVA + (edSize+secAlign-1)/secAlign*secAlign
	hw32(uint32(imgSize)) // SizeOfImage
	hw32(fileAlign)       // SizeOfHeaders
	hw32(0)               // CheckSum
	hw16(3)               // Subsystem: console
	hw16(0x0100)          // DllCharacteristics: NX_COMPAT
	hw64(0x100000)
	hw64(0x1000) // stack
	hw64(0x100000)
	hw64(0x1000) // heap
	hw32(0)      // LoaderFlags
	hw32(16)     // NumberOfRvaAndSizes
	for i := 0; i < 16; i++ {
		if i == 0 {
			hw32(secRVA)
			hw32(uint32(edSize))
		} else {
			hw32(0)
			hw32(0)
		}
	}
	// section header
	name := [8]byte{'.', 'e', 'd', 'a', 't', 'a'}
	h.Write(name[:])
	hw32(uint32(edSize)) // VirtualSize
	hw32(secRVA)         // VirtualAddress
	hw32(uint32(raw))    // SizeOfRawData
	hw32(fileAlign)      // PointerToRawData
	hw32(0)
	hw32(0)
	hw16(0)
	hw16(0)
	hw32(0x40000040) // INITIALIZED_DATA|MEM_READ
	for h.Len() < fileAlign {
		h.WriteByte(0)
	}
	h.Write(ed.Bytes())
	if err := os.WriteFile(os.Args[1], h.Bytes(), 0o644); err != nil {
		panic(err)
	}
}
