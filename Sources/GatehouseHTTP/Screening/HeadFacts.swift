import CMicroHTTPD

/// What the request's head looked like in MHD's buffer, before the C strings it hands over
/// could hide anything behind a NUL (see `cmhd_head_layout` in the shim).
struct HeadFacts {
    enum Layout { case strict, brokenRequestLine, brokenField }

    let layout: Layout
    /// The request target's length in bytes as it was read (nil when it was not seen).
    let targetLength: Int?
    /// The target held a space or a control byte as it was read (MHD later turns `+` into a
    /// space in the arguments, so they cannot tell).
    let targetHasRefusedByte: Bool
    let fieldCount: Int
    /// The request line and header fields, roughly as sent.
    let bytes: Int

    init(
        _ connection: OpaquePointer, method: UnsafePointer<CChar>?, url: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
        target: UnsafeMutableRawPointer?
    ) {
        var fields = 0
        var bytes = 0
        let uriLength = target.map { cmhd_uri_length($0) }
        targetHasRefusedByte = target.map { cmhd_uri_has_refused_byte($0) != 0 } ?? false
        let code = uriLength.map { cmhd_head_layout(connection, method, url, version, $0, &fields, &bytes) } ?? 1
        layout = code == 0 ? .strict : code == 1 ? .brokenRequestLine : .brokenField
        targetLength = uriLength
        fieldCount = fields
        self.bytes = bytes
    }
}
