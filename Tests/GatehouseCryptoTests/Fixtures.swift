/// Certificates and keys the tests verify against. Everything here is public or test-only.
///
/// The test PKI was generated once with the `openssl` CLI (`openssl ca` with fixed
/// `-startdate`/`-enddate`, so the validity windows are round dates) and pasted in:
/// - root: P-384, self-signed, CN=Gatehouse Test Root CA, 2024-01-01 → 2044-01-01, ecdsa-SHA384;
/// - intermediate: P-384, CA pathlen 0, carries Apple's WWDR marker 1.2.840.113635.100.6.2.1,
///   2024-01-01 → 2034-01-01;
/// - leaf: P-256, digitalSignature, carries Apple's App Store marker 1.2.840.113635.100.6.11.1,
///   2025-01-01 → 2026-01-01;
/// - otherRoot: a second P-384 root with the same subject name as `root` but a different key.
/// All carry SKI/AKI and critical key usage so they pass OpenSSL's X509_STRICT checks.
enum Fixtures {
    static let rootPEM = """
    -----BEGIN CERTIFICATE-----
    MIIB5TCCAWugAwIBAgICEAAwCgYIKoZIzj0EAwMwOzEfMB0GA1UEAwwWR2F0ZWhv
    dXNlIFRlc3QgUm9vdCBDQTEYMBYGA1UECgwPR2F0ZWhvdXNlIFRlc3RzMB4XDTI0
    MDEwMTAwMDAwMFoXDTQ0MDEwMTAwMDAwMFowOzEfMB0GA1UEAwwWR2F0ZWhvdXNl
    IFRlc3QgUm9vdCBDQTEYMBYGA1UECgwPR2F0ZWhvdXNlIFRlc3RzMHYwEAYHKoZI
    zj0CAQYFK4EEACIDYgAEEBYYuL4KEbmj8gqOrwSxMyQkE92+B9ebEnt8GdhFClnM
    uKZfIjIoHjEnJcC/KbPdk5bX7257ocMpeeEISBDVI4pJn0sFLyJa66t6UL+oAruI
    LAcVIH/XVzLM620gNwRLo0IwQDAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQE
    AwIBBjAdBgNVHQ4EFgQUiFgBoG0e/C1eHPCArd4g/gEz1/4wCgYIKoZIzj0EAwMD
    aAAwZQIwNh8IEaaSBFK50UI0G+njXH+CSAgb8UU/GZmZkx+cGGorwHYX8WDsWgQH
    EpwyfPS9AjEA+Yg04yeRpaQHBrGBC9TjyeM3HSndss+rR9OMkO/W/JcBpRQCtpMG
    BhhQ/CTPlAyC
    -----END CERTIFICATE-----
    """

    static let intermediatePEM = """
    -----BEGIN CERTIFICATE-----
    MIICJDCCAamgAwIBAgICEAIwCgYIKoZIzj0EAwMwOzEfMB0GA1UEAwwWR2F0ZWhv
    dXNlIFRlc3QgUm9vdCBDQTEYMBYGA1UECgwPR2F0ZWhvdXNlIFRlc3RzMB4XDTI0
    MDEwMTAwMDAwMFoXDTM0MDEwMTAwMDAwMFowQzEnMCUGA1UEAwweR2F0ZWhvdXNl
    IFRlc3QgSW50ZXJtZWRpYXRlIENBMRgwFgYDVQQKDA9HYXRlaG91c2UgVGVzdHMw
    djAQBgcqhkjOPQIBBgUrgQQAIgNiAASxZXq82z2jrJr0pchW7DBbZj1Ix9SHXrc5
    TqFdBIlvBZ7XdF1OZKJM94W2gBTqVddProI67C5KJptKrDHb5bnTiJ0NFDxBKIoP
    QCgvbrS0gjnOo1MBo3hqXQRmPNyo98yjeDB2MBIGA1UdEwEB/wQIMAYBAf8CAQAw
    DgYDVR0PAQH/BAQDAgEGMB0GA1UdDgQWBBRRzG+ZwvNxyxz2XYBbEq9HtsbI5jAf
    BgNVHSMEGDAWgBSIWAGgbR78LV4c8ICt3iD+ATPX/jAQBgoqhkiG92NkBgIBBAIF
    ADAKBggqhkjOPQQDAwNpADBmAjEA13fcG5T7kJvr2JfNLvI2nDJWO6ZS0CiHablv
    vmeTkm2/OCTKBO/YYSPte1Ppt/pYAjEA1zw/Vssm78LJulwQK5ZpF47BSfViuTuC
    dp1GAo16VL9OEXk+iOaU00jMEiTBbYOs
    -----END CERTIFICATE-----
    """

    static let leafPEM = """
    -----BEGIN CERTIFICATE-----
    MIICBTCCAYugAwIBAgICEAMwCgYIKoZIzj0EAwMwQzEnMCUGA1UEAwweR2F0ZWhv
    dXNlIFRlc3QgSW50ZXJtZWRpYXRlIENBMRgwFgYDVQQKDA9HYXRlaG91c2UgVGVz
    dHMwHhcNMjUwMTAxMDAwMDAwWhcNMjYwMTAxMDAwMDAwWjBAMSQwIgYDVQQDDBtH
    YXRlaG91c2UgVGVzdCBTaWduaW5nIExlYWYxGDAWBgNVBAoMD0dhdGVob3VzZSBU
    ZXN0czBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABN9GnkPkLAAWpAGUM4W5e8br
    15C64RR02YkI5DA7gPQdWYRX4luJUYvee1wGlWUms/Va6KWFYudnMG4jjS+ug2ej
    cjBwMAwGA1UdEwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMB0GA1UdDgQWBBRkgXG9
    PfT8aQcEXuGCn3g8CVfDATAfBgNVHSMEGDAWgBRRzG+ZwvNxyxz2XYBbEq9HtsbI
    5jAQBgoqhkiG92NkBgsBBAIFADAKBggqhkjOPQQDAwNoADBlAjBt4go392mbCYrL
    04jxa7FguHt85/W93TSme1DJscWEVCFiKT2P6ShunBlQQGUpwtMCMQDpU4K7AL1Z
    lu/Bz1AO7FXygvfzJwNiiCdzHWc+pUltSZJ0R4AZveLqsDLH2X0W66c=
    -----END CERTIFICATE-----
    """

    static let otherRootPEM = """
    -----BEGIN CERTIFICATE-----
    MIIB5DCCAWugAwIBAgICEAEwCgYIKoZIzj0EAwMwOzEfMB0GA1UEAwwWR2F0ZWhv
    dXNlIFRlc3QgUm9vdCBDQTEYMBYGA1UECgwPR2F0ZWhvdXNlIFRlc3RzMB4XDTI0
    MDEwMTAwMDAwMFoXDTQ0MDEwMTAwMDAwMFowOzEfMB0GA1UEAwwWR2F0ZWhvdXNl
    IFRlc3QgUm9vdCBDQTEYMBYGA1UECgwPR2F0ZWhvdXNlIFRlc3RzMHYwEAYHKoZI
    zj0CAQYFK4EEACIDYgAEHCnBjRCi3nJIXSgAXpQLm/czxBoXxk+RjB9cIoZJ4mFj
    7F+GtV3fCnjbe3G33SxAOIfVr9ufah5tbFJlS/Dgobv6GLDPzu4kLaAXzSMLNlFq
    SAdOgfrl2GhVV98UcU6lo0IwQDAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQE
    AwIBBjAdBgNVHQ4EFgQUTkg1vGyaYna8yBIb/Q1gqKqIgjgwCgYIKoZIzj0EAwMD
    ZwAwZAIwU7NXG9QilPJBqgovGM44Yusz50kXoHmbXKVgB15IFk40XY1oGQgqCZ9Y
    MUXLXDBHAjBzuoMFiurfUGmLxIw4GvZKs2AZc8pBa8sfpbjgSXmawRoMMck7yLh/
    txSx3Y/U1KM=
    -----END CERTIFICATE-----
    """

    /// The leaf's private key (PKCS#8), so tests can sign as the leaf.
    static let leafPrivateKeyPEM = """
    -----BEGIN PRIVATE KEY-----
    MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgKuoZdkwcDjbE9Rrf
    ZBup/FDL2mw1W+7NIM0/Rfk03uuhRANCAATfRp5D5CwAFqQBlDOFuXvG69eQuuEU
    dNmJCOQwO4D0HVmEV+JbiVGL3ntcBpVlJrP1WuilhWLnZzBuI40vroNn
    -----END PRIVATE KEY-----
    """

    /// The leaf's public key as a PEM SubjectPublicKeyInfo.
    static let leafPublicKeyPEM = """
    -----BEGIN PUBLIC KEY-----
    MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE30aeQ+QsABakAZQzhbl7xuvXkLrh
    FHTZiQjkMDuA9B1ZhFfiW4lRi957XAaVZSaz9VropYVi52cwbiONL66DZw==
    -----END PUBLIC KEY-----
    """

    /// Apple Root CA - G3, a copy of /work/shared/specs/apple-root-ca-g3.pem (pinned by fingerprint below).
    static let appleRootG3PEM = """
    -----BEGIN CERTIFICATE-----
    MIICQzCCAcmgAwIBAgIILcX8iNLFS5UwCgYIKoZIzj0EAwMwZzEbMBkGA1UEAwwS
    QXBwbGUgUm9vdCBDQSAtIEczMSYwJAYDVQQLDB1BcHBsZSBDZXJ0aWZpY2F0aW9u
    IEF1dGhvcml0eTETMBEGA1UECgwKQXBwbGUgSW5jLjELMAkGA1UEBhMCVVMwHhcN
    MTQwNDMwMTgxOTA2WhcNMzkwNDMwMTgxOTA2WjBnMRswGQYDVQQDDBJBcHBsZSBS
    b290IENBIC0gRzMxJjAkBgNVBAsMHUFwcGxlIENlcnRpZmljYXRpb24gQXV0aG9y
    aXR5MRMwEQYDVQQKDApBcHBsZSBJbmMuMQswCQYDVQQGEwJVUzB2MBAGByqGSM49
    AgEGBSuBBAAiA2IABJjpLz1AcqTtkyJygRMc3RCV8cWjTnHcFBbZDuWmBSp3ZHtf
    TjjTuxxEtX/1H7YyYl3J6YRbTzBPEVoA/VhYDKX1DyxNB0cTddqXl5dvMVztK517
    IDvYuVTZXpmkOlEKMaNCMEAwHQYDVR0OBBYEFLuw3qFYM4iapIqZ3r6966/ayySr
    MA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMDA2gA
    MGUCMQCD6cHEFl4aXTQY2e3v9GwOAEZLuN+yRhHFD/3meoyhpmvOwgPUnPWTxnS4
    at+qIxUCMG1mihDK1A3UT82NQz60imOlM27jbdoXt2QfyFMm+YhidDkLF1vLUagM
    6BgD56KyKA==
    -----END CERTIFICATE-----
    """

    /// SHA-256 of Apple Root CA - G3's DER, as published by Apple.
    static let appleRootG3Fingerprint =
        "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179"
}
