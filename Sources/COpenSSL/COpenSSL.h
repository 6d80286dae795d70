#ifndef PINCTL_COPENSSL_H
#define PINCTL_COPENSSL_H

// The OpenSSL headers pinctl uses, and one static inline shim for every macro Swift cannot call.

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/conf.h>
#include <openssl/core_names.h>
#include <openssl/ct.h>
#include <openssl/engine.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/ocsp.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

static inline STACK_OF(X509) *COpenSSLShim_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int COpenSSLShim_sk_X509_push(STACK_OF(X509) *sk, X509 *x) { return sk_X509_push(sk, x); }
static inline int COpenSSLShim_sk_X509_num(const STACK_OF(X509) *sk) { return sk_X509_num(sk); }
static inline X509 *COpenSSLShim_sk_X509_value(const STACK_OF(X509) *sk, int i) { return sk_X509_value(sk, i); }
static inline void COpenSSLShim_sk_X509_free(STACK_OF(X509) *sk) { sk_X509_free(sk); }
static inline void COpenSSLShim_sk_X509_pop_free(STACK_OF(X509) *sk) { sk_X509_pop_free(sk, X509_free); }

static inline int COpenSSLShim_sk_GENERAL_NAME_num(const GENERAL_NAMES *sk) { return sk_GENERAL_NAME_num(sk); }
static inline GENERAL_NAME *COpenSSLShim_sk_GENERAL_NAME_value(const GENERAL_NAMES *sk, int i) {
    return sk_GENERAL_NAME_value(sk, i);
}

// NameConstraints subtrees (X509_get_ext_d2i with NID_name_constraints).
static inline int COpenSSLShim_sk_GENERAL_SUBTREE_num(const STACK_OF(GENERAL_SUBTREE) *sk) {
    return sk_GENERAL_SUBTREE_num(sk);
}
static inline GENERAL_SUBTREE *COpenSSLShim_sk_GENERAL_SUBTREE_value(const STACK_OF(GENERAL_SUBTREE) *sk, int i) {
    return sk_GENERAL_SUBTREE_value(sk, i);
}

// Signed certificate timestamps (X509_get_ext_d2i with NID_ct_precert_scts).
static inline int COpenSSLShim_sk_SCT_num(const STACK_OF(SCT) *sk) { return sk_SCT_num(sk); }
static inline SCT *COpenSSLShim_sk_SCT_value(const STACK_OF(SCT) *sk, int i) { return sk_SCT_value(sk, i); }

static inline void COpenSSLShim_OPENSSL_free(void *p) { OPENSSL_free(p); }
static inline long COpenSSLShim_BIO_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }
static inline unsigned long COpenSSLShim_XN_FLAG_RFC2253(void) { return XN_FLAG_RFC2253; }

static inline int COpenSSLShim_X509_STORE_CTX_set_app_data(X509_STORE_CTX *ctx, void *data) {
    return X509_STORE_CTX_set_app_data(ctx, data);
}
static inline void *COpenSSLShim_X509_STORE_CTX_get_app_data(X509_STORE_CTX *ctx) {
    return X509_STORE_CTX_get_app_data(ctx);
}

static inline long COpenSSLShim_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}
static inline long COpenSSLShim_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_min_proto_version(ctx, version);
}
static inline long COpenSSLShim_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_max_proto_version(ctx, version);
}
static inline long COpenSSLShim_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
static inline long COpenSSLShim_SSL_CTX_add1_chain_cert(SSL_CTX *ctx, X509 *x) {
    return SSL_CTX_add1_chain_cert(ctx, x);
}

// TLS client (Sources/OpenSSLWrapper/TLS) and the in-process test servers (Tests/TestSupport).
static inline long COpenSSLShim_SSL_CTX_set_max_cert_list(SSL_CTX *ctx, long bytes) {
    return SSL_CTX_set_max_cert_list(ctx, bytes);
}
static inline long COpenSSLShim_SSL_CTX_set_read_ahead(SSL_CTX *ctx, long yes) {
    return SSL_CTX_set_read_ahead(ctx, yes);
}
static inline long COpenSSLShim_SSL_CTX_set_tlsext_servername_callback(SSL_CTX *ctx, int (*cb)(SSL *, int *, void *)) {
    return SSL_CTX_set_tlsext_servername_callback(ctx, cb);
}
static inline long COpenSSLShim_SSL_CTX_set_tlsext_servername_arg(SSL_CTX *ctx, void *arg) {
    return SSL_CTX_set_tlsext_servername_arg(ctx, arg);
}
// Per-connection settings of the TLS client: one protocol version, one key type, a stapled OCSP response (`check`
// edges and revocation).
static inline long COpenSSLShim_SSL_set_min_proto_version(SSL *ssl, int version) {
    return SSL_set_min_proto_version(ssl, version);
}
static inline long COpenSSLShim_SSL_set_max_proto_version(SSL *ssl, int version) {
    return SSL_set_max_proto_version(ssl, version);
}
static inline long COpenSSLShim_SSL_set1_sigalgs_list(SSL *ssl, const char *list) {
    return SSL_set1_sigalgs_list(ssl, list);
}
static inline long COpenSSLShim_SSL_set_tlsext_status_type(SSL *ssl, int type) {
    return SSL_set_tlsext_status_type(ssl, type);
}
static inline long COpenSSLShim_SSL_get_tlsext_status_ocsp_resp(SSL *ssl, const unsigned char **response) {
    return SSL_get_tlsext_status_ocsp_resp(ssl, response);
}

// Revocation (Sources/OpenSSLWrapper/Revocation): a certificate's OCSP responders and CRL distribution points, and the
// hash algorithm of an OCSP CertID.
static inline int COpenSSLShim_sk_OPENSSL_STRING_num(const STACK_OF(OPENSSL_STRING) *sk) {
    return sk_OPENSSL_STRING_num(sk);
}
static inline const char *COpenSSLShim_sk_OPENSSL_STRING_value(const STACK_OF(OPENSSL_STRING) *sk, int i) {
    return sk_OPENSSL_STRING_value(sk, i);
}
static inline int COpenSSLShim_sk_DIST_POINT_num(const STACK_OF(DIST_POINT) *sk) { return sk_DIST_POINT_num(sk); }
static inline DIST_POINT *COpenSSLShim_sk_DIST_POINT_value(const STACK_OF(DIST_POINT) *sk, int i) {
    return sk_DIST_POINT_value(sk, i);
}
// The full name (a list of general names) of a distribution point; NULL when it has none or only a relative name.
static inline GENERAL_NAMES *COpenSSLShim_DIST_POINT_fullname(const DIST_POINT *dp) {
    return dp != NULL && dp->distpoint != NULL && dp->distpoint->type == 0 ? dp->distpoint->name.fullname : NULL;
}
// OCSP_id_get0_info takes a non-const CertID but only reads it.
static inline const ASN1_OBJECT *COpenSSLShim_OCSP_CERTID_hash_algorithm(const OCSP_CERTID *id) {
    ASN1_OBJECT *md = NULL;
    return OCSP_id_get0_info(NULL, &md, NULL, NULL, (OCSP_CERTID *)id) == 1 ? md : NULL;
}

static inline void COpenSSLShim_BIO_set_retry_read(BIO *bio) { BIO_set_retry_read(bio); }
static inline void COpenSSLShim_BIO_set_retry_write(BIO *bio) { BIO_set_retry_write(bio); }
static inline void COpenSSLShim_BIO_clear_retry_flags(BIO *bio) { BIO_clear_retry_flags(bio); }

// Key generation for backup-key (Sources/OpenSSLWrapper/KeyGeneration): both are variadic macros.
static inline EVP_PKEY *COpenSSLShim_EVP_EC_gen(const char *curve) { return EVP_EC_gen(curve); }
static inline EVP_PKEY *COpenSSLShim_EVP_RSA_gen(unsigned int bits) { return EVP_RSA_gen(bits); }

// Public keys of certificates decoded by OpenSSL's built-in RSA and EC methods (Sources/OpenSSLWrapper/
// BuiltinKeyMethods.swift says why). x509_pubkey_decode (crypto/x509/x_pubkey.c) takes that path for a key type only
// when an ENGINE offers the type's EVP_PKEY_METHOD, so the one way to ask for it is an ENGINE that offers the
// built-in methods themselves: no code of ours runs in any key operation. The ENGINE API is deprecated in 3.0 and
// still supported through 3.x; without it (OPENSSL_NO_ENGINE, a 4.0) nothing is installed and OpenSSL decodes as
// before.
#if OPENSSL_VERSION_MAJOR == 3 && !defined(OPENSSL_NO_ENGINE) && !defined(OPENSSL_NO_DEPRECATED_3_0)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static const int COpenSSLShim_builtin_key_types[] = { EVP_PKEY_RSA, EVP_PKEY_EC };

// ENGINE_PKEY_METHS_PTR: with no method to fill, the key types offered; else the built-in method of `type`.
// EVP_PKEY_meth_find returns OpenSSL's static tables, which ENGINE_free leaves alone (they are not
// EVP_PKEY_FLAG_DYNAMIC).
static inline int COpenSSLShim_builtin_key_methods(ENGINE *engine, EVP_PKEY_METHOD **method, const int **types,
                                                   int type) {
    (void)engine;
    if (method == NULL) {
        *types = COpenSSLShim_builtin_key_types;
        return (int)(sizeof(COpenSSLShim_builtin_key_types) / sizeof(COpenSSLShim_builtin_key_types[0]));
    }
    *method = (EVP_PKEY_METHOD *)EVP_PKEY_meth_find(type);
    return *method != NULL;
}

// 1 when installed; 0 when OpenSSL refused (the queue says why) and keys are decoded as before. Call once.
static inline int COpenSSLShim_use_builtin_key_methods(void) {
    ENGINE *engine = ENGINE_new();
    if (engine == NULL) return 0;
    int installed = ENGINE_set_id(engine, "pinctl-builtin-keys")
        && ENGINE_set_name(engine, "OpenSSL's built-in RSA and EC key methods, offered for decoding")
        && ENGINE_set_pkey_meths(engine, COpenSSLShim_builtin_key_methods)
        && ENGINE_add(engine)
        && ENGINE_register_pkey_meths(engine);
    // ENGINE_add keeps its own reference: the engine lives until OPENSSL_cleanup at exit.
    ENGINE_free(engine);
    return installed;
}
#pragma GCC diagnostic pop
#else
static inline int COpenSSLShim_use_builtin_key_methods(void) { return 0; }
#endif

// OpenSSL 3.0 reads a store of CT logs only from a path (CTLOG_STORE_load_file): pinctl hands it a file in memory,
// opened again through /proc/self/fd. glibc (2.27 on) declares memfd_create only under _GNU_SOURCE, which the Swift
// importer does not define; this is its declaration from <sys/mman.h>.
int memfd_create(const char *name, unsigned int flags);

#endif
