/* The floor under any prober built on this machine's OpenSSL as it comes: a bare C client that does only what a
 * probe's TLS part does, as fast as the target answers, and prints the CPU it spent per handshake. It decodes keys as
 * OpenSSL does by default; pinctl has RSA and EC keys decoded by OpenSSL's built-in key methods
 * (Sources/OpenSSLWrapper/BuiltinKeyMethods.swift), which is why pinctl serve can spend less than this floor.
 * scripts/bench-exporter.sh compiles it and runs it against the exporters' target, so that the CPU per probe of
 * pinctl serve and of blackbox_exporter can be read against what OpenSSL alone costs for the same handshake and chain
 * verification.
 *
 * Each thread: connect over TCP, a full TLS handshake with SNI (no session is resumed: every SSL is new, and the
 * client cache is off), the chain verified against the CA file for the host name, then close. One SSL_CTX, made
 * once, as a long-running exporter would.
 *
 *   openssl-handshake-loop HOST PORT SERVERNAME CAFILE THREADS SECONDS
 * prints: "handshakes N failed F cpu_seconds S" (CPU is the process's user + system time, all threads).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static SSL_CTX *context;
static struct sockaddr_in address;
static const char *server_name;
static double seconds;
static atomic_long handshakes, failures;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void *loop(void *unused) {
    (void)unused;
    double end = now() + seconds;
    while (now() < end) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
            perror("openssl-handshake-loop: connect");
            exit(1);
        }
        SSL *ssl = SSL_new(context);
        SSL_set_fd(ssl, fd);
        SSL_set_tlsext_host_name(ssl, server_name);
        SSL_set1_host(ssl, server_name);
        if (SSL_connect(ssl) == 1 && SSL_get_verify_result(ssl) == X509_V_OK)
            atomic_fetch_add(&handshakes, 1);
        else
            atomic_fetch_add(&failures, 1);
        SSL_free(ssl);
        close(fd);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: openssl-handshake-loop HOST PORT SERVERNAME CAFILE THREADS SECONDS\n");
        return 2;
    }
    address.sin_family = AF_INET;
    address.sin_port = htons((unsigned short)atoi(argv[2]));
    if (inet_pton(AF_INET, argv[1], &address.sin_addr) != 1) {
        fprintf(stderr, "openssl-handshake-loop: not an IPv4 address: %s\n", argv[1]);
        return 2;
    }
    server_name = argv[3];
    int threads = atoi(argv[5]);
    seconds = atof(argv[6]);
    context = SSL_CTX_new(TLS_client_method());
    if (context == NULL || SSL_CTX_load_verify_locations(context, argv[4], NULL) != 1) {
        ERR_print_errors_fp(stderr);
        return 1;
    }
    SSL_CTX_set_session_cache_mode(context, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, NULL);
    pthread_t workers[threads > 0 ? threads : 1];
    for (int i = 0; i < threads; i++) pthread_create(&workers[i], NULL, loop, NULL);
    for (int i = 0; i < threads; i++) pthread_join(workers[i], NULL);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
    printf("handshakes %ld failed %ld cpu_seconds %.3f\n", atomic_load(&handshakes), atomic_load(&failures), cpu);
    return 0;
}
