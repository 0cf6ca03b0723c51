import CCurl
import GatehouseCore

/// curl's result codes as the failures callers tell apart.
enum CurlErrors {
    static func code(_ code: CURLcode) -> OutboundError.Code {
        switch code {
        case CURLE_OPERATION_TIMEDOUT: .timedOut
        case CURLE_COULDNT_RESOLVE_HOST: .hostNotFound
        case CURLE_COULDNT_CONNECT: .connectionRefused
        case CURLE_FILESIZE_EXCEEDED: .tooLarge
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: .badURL
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE:
            .tls
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2_STREAM:
            .connectionLost
        // curl's own refusal of a header line past 100 KiB.
        case CURLE_WEIRD_SERVER_REPLY, CURLE_OUT_OF_MEMORY, CURLE_HTTP2, CURLE_TOO_MANY_REDIRECTS, CURLE_BAD_CONTENT_ENCODING, CURLE_WRITE_ERROR:
            .invalidResponse
        default: .unknown
        }
    }
}
