#ifndef GATEHOUSE_COPENSSL_H
#define GATEHOUSE_COPENSSL_H
#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/objects.h>
#include <openssl/params.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

/* Swift cannot import function-like or composite macros; these wrap the few it needs. */

/* OpenSSL keeps some name pointers past the call that receives them (an EVP_PKEY_CTX's key
   type, every OSSL_PARAM key). A Swift string bridged to `const char *` dies when that call
   returns, so these names come from C string literals, which live for the whole program. */
static inline const char *copenssl_key_type_ec(void) { return "EC"; }
static inline const char *copenssl_key_type_rsa(void) { return "RSA"; }
static inline const char *copenssl_key_type_ed25519(void) { return "ED25519"; }
static inline const char *copenssl_param_rsa_n(void) { return OSSL_PKEY_PARAM_RSA_N; }
static inline const char *copenssl_param_rsa_e(void) { return OSSL_PKEY_PARAM_RSA_E; }
static inline const char *copenssl_param_group_name(void) { return OSSL_PKEY_PARAM_GROUP_NAME; }
static inline const char *copenssl_param_public_key(void) { return OSSL_PKEY_PARAM_PUB_KEY; }
static inline const char *copenssl_param_encoded_public_key(void) { return OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY; }

/* EVP_PKEY_PUBLIC_KEY / EVP_PKEY_KEYPAIR are OR-ed macro chains. */
static inline int copenssl_selection_public_key(void) { return EVP_PKEY_PUBLIC_KEY; }

/* RFC 2253 names, but with UTF-8 kept as UTF-8 rather than escaped as \XX bytes. */
static inline unsigned long copenssl_name_flags_rfc2253_utf8(void) {
    return XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB;
}

/* STACK_OF(X509) helpers are macros over OPENSSL_sk_* with casts. */
static inline STACK_OF(X509) *copenssl_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int copenssl_sk_X509_push(STACK_OF(X509) *stack, X509 *cert) { return sk_X509_push(stack, cert); }
static inline void copenssl_sk_X509_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }

/* OPENSSL_free carries __FILE__/__LINE__ through a macro. */
static inline void copenssl_free(void *pointer) { OPENSSL_free(pointer); }

/* SSL_set_tlsext_host_name and SSL_CTX_set_min_proto_version are SSL_ctrl/SSL_CTX_ctrl macros. */
static inline int copenssl_ssl_set_sni_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}
static inline int copenssl_ssl_ctx_require_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

#endif
