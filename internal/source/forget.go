package source

// Forget drops the parse Unpack made of the file, which Tree hands on so
// that the file is parsed once: kept past validation it holds the whole
// yaml.v3 tree, most of a large document's memory. Tree parses Data again
// afterwards. The tree a command line's data: document was read into stays:
// a command line is a few KiB at most.
func (d *Delivery) Forget() {
	if d != nil {
		d.parsed = nil
	}
}
