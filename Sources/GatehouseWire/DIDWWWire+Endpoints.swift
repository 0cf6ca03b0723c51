import Foundation

extension DIDWWWire {
    /// The DIDWW Verification API: start, and status and report by id or by number (PUT, and
    /// PATCH as the vendor's spec has it), with the application's key, signed or not.
    public enum Endpoints {
        public static let prefix = "/api/v1/verifications"

        public typealias Reply = Envelope<Verification>

        static func endpoint<Body>(_ method: RequestMethod, _ path: String, id: String, _ summary: String) -> Endpoint<Body, Reply> {
            Endpoint(method, prefix + path, credential: .applicationKey, envelope: .didww, id: id, summary: summary)
        }

        public static let start: Endpoint<Envelope<StartRequest>, Reply> = endpoint(.POST, "", id: "startVerification", "Send a code")
        public static let status: Endpoint<NoBody, Reply> = endpoint(.GET, "/:id", id: "getVerification", "A verification's status")
        public static let report: Endpoint<Envelope<ReportRequest>, Reply> =
            endpoint(.PUT, "/:id", id: "reportVerification", "Report the code the user typed")
        public static let reportWithPatch: Endpoint<Envelope<ReportRequest>, Reply> =
            endpoint(.PATCH, "/:id", id: "reportVerificationWithPatch", "Report the code (PATCH, as the vendor's spec)")
        public static let statusByNumber: Endpoint<NoBody, Reply> =
            endpoint(.GET, "/by_number/:number", id: "getVerificationByNumber", "The status of the number's newest verification")
        public static let reportByNumber: Endpoint<Envelope<ReportRequest>, Reply> =
            endpoint(.PUT, "/by_number/:number", id: "reportVerificationByNumber", "Report the code for the number's newest verification")
        public static let reportByNumberWithPatch: Endpoint<Envelope<ReportRequest>, Reply> = endpoint(
            .PATCH, "/by_number/:number", id: "reportVerificationByNumberWithPatch", "Report the code for the number's newest verification (PATCH)")

        /// Every endpoint of the dialect.
        public static var all: [EndpointDescription] {
            [start.described, status.described, report.described, reportWithPatch.described, statusByNumber.described, reportByNumber.described,
             reportByNumberWithPatch.described]
        }
    }
}
