/* An LD_PRELOAD shim that logs every write, truncate, sync and unlink a process makes to the
 * files whose path contains $CARDTABLE_IOLOG_WATCH, into $CARDTABLE_IOLOG, so that a harness
 * can rebuild those files as a power cut would leave them: as of each file's last fsync, plus
 * any subset of the writes that came after (tests/harness/powercut.py).
 *
 * Record: op (1 byte: O open, W write, T truncate, S sync, U unlink), 7 pad bytes, then
 * int64 offset, int64 length, int64 monotonic ns, int32 path length, 4 pad bytes, the path,
 * then `length` data bytes for W. One write(2) per record, under a mutex.
 *
 * With $CARDTABLE_IOLOG_LIE set, syncs are not logged: a disk that lies about fsync, for the
 * harness to show that it notices what such a disk loses.
 *
 * Build: gcc -shared -fPIC -O2 -o iolog.so iolog.c -ldl -lpthread
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define MAX_FDS 65536

struct head {
    uint8_t op;
    uint8_t pad[7];
    int64_t offset;
    int64_t length;
    int64_t ns;
    int32_t path_length;
    int32_t pad2;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int log_fd = -2;
static const char *watch;
static int lie;
static char *paths[MAX_FDS];

static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off64_t);
static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_close)(int);
static int (*real_ftruncate)(int, off_t);
static int (*real_ftruncate64)(int, off64_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_unlink)(const char *);

static void setup(void) {
    if (log_fd != -2)
        return;
    real_write = dlsym(RTLD_NEXT, "write");
    real_pwrite = dlsym(RTLD_NEXT, "pwrite");
    real_pwrite64 = dlsym(RTLD_NEXT, "pwrite64");
    real_open = dlsym(RTLD_NEXT, "open");
    real_open64 = dlsym(RTLD_NEXT, "open64");
    real_openat = dlsym(RTLD_NEXT, "openat");
    real_close = dlsym(RTLD_NEXT, "close");
    real_ftruncate = dlsym(RTLD_NEXT, "ftruncate");
    real_ftruncate64 = dlsym(RTLD_NEXT, "ftruncate64");
    real_fsync = dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
    real_unlink = dlsym(RTLD_NEXT, "unlink");
    watch = getenv("CARDTABLE_IOLOG_WATCH");
    lie = getenv("CARDTABLE_IOLOG_LIE") != NULL;
    const char *path = getenv("CARDTABLE_IOLOG");
    log_fd = -1;
    if (path != NULL && watch != NULL)
        log_fd = real_open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
}

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void record(uint8_t op, const char *path, int64_t offset, const void *data,
                   int64_t length) {
    size_t path_length = strlen(path);
    size_t data_length = op == 'W' ? (size_t)length : 0;
    size_t size = sizeof(struct head) + path_length + data_length;
    char *buffer = malloc(size);
    if (buffer == NULL)
        return;
    struct head head = {0};
    head.op = op;
    head.offset = offset;
    head.length = length;
    head.ns = now_ns();
    head.path_length = (int32_t)path_length;
    memcpy(buffer, &head, sizeof head);
    memcpy(buffer + sizeof head, path, path_length);
    if (data_length)
        memcpy(buffer + sizeof head + path_length, data, data_length);
    real_write(log_fd, buffer, size);
    free(buffer);
}

static const char *watched(int fd) {
    return (fd >= 0 && fd < MAX_FDS) ? paths[fd] : NULL;
}

static void opened(int fd, const char *path, int flags) {
    if (fd < 0 || fd >= MAX_FDS || log_fd < 0 || watch == NULL || strstr(path, watch) == NULL)
        return;
    char *full = realpath(path, NULL);
    pthread_mutex_lock(&lock);
    free(paths[fd]);
    paths[fd] = full != NULL ? full : strdup(path);
    record('O', paths[fd], flags, NULL, 0);
    if (flags & O_TRUNC)
        record('T', paths[fd], 0, NULL, 0);
    pthread_mutex_unlock(&lock);
}

#define OPEN_BODY(call)                                                                     \
    setup();                                                                                \
    mode_t mode = 0;                                                                        \
    if (flags & (O_CREAT | O_TMPFILE)) {                                                    \
        va_list args;                                                                       \
        va_start(args, flags);                                                              \
        mode = va_arg(args, mode_t);                                                        \
        va_end(args);                                                                       \
    }                                                                                       \
    int fd = call;                                                                          \
    if (fd >= 0)                                                                            \
        opened(fd, path, flags);                                                            \
    return fd;

int open(const char *path, int flags, ...) { OPEN_BODY(real_open(path, flags, mode)) }
int open64(const char *path, int flags, ...) { OPEN_BODY(real_open64(path, flags, mode)) }
int openat(int dir, const char *path, int flags, ...) {
    OPEN_BODY(real_openat(dir, path, flags, mode))
}

int close(int fd) {
    setup();
    if (watched(fd) != NULL) {
        pthread_mutex_lock(&lock);
        free(paths[fd]);
        paths[fd] = NULL;
        pthread_mutex_unlock(&lock);
    }
    return real_close(fd);
}

static void wrote(int fd, off64_t offset, const void *data, ssize_t done) {
    const char *path = watched(fd);
    if (path == NULL || done <= 0)
        return;
    pthread_mutex_lock(&lock);
    record('W', path, offset, data, done);
    pthread_mutex_unlock(&lock);
}

ssize_t write(int fd, const void *data, size_t size) {
    setup();
    off_t offset = watched(fd) != NULL ? lseek(fd, 0, SEEK_CUR) : 0;
    ssize_t done = real_write(fd, data, size);
    wrote(fd, offset, data, done);
    return done;
}

ssize_t pwrite(int fd, const void *data, size_t size, off_t offset) {
    setup();
    ssize_t done = real_pwrite(fd, data, size, offset);
    wrote(fd, offset, data, done);
    return done;
}

ssize_t pwrite64(int fd, const void *data, size_t size, off64_t offset) {
    setup();
    ssize_t done = real_pwrite64(fd, data, size, offset);
    wrote(fd, offset, data, done);
    return done;
}

static void truncated(int fd, int64_t length, int result) {
    const char *path = watched(fd);
    if (path == NULL || result != 0)
        return;
    pthread_mutex_lock(&lock);
    record('T', path, length, NULL, 0);
    pthread_mutex_unlock(&lock);
}

int ftruncate(int fd, off_t length) {
    setup();
    int result = real_ftruncate(fd, length);
    truncated(fd, length, result);
    return result;
}

int ftruncate64(int fd, off64_t length) {
    setup();
    int result = real_ftruncate64(fd, length);
    truncated(fd, length, result);
    return result;
}

static void synced(int fd, int result) {
    const char *path = watched(fd);
    if (path == NULL || result != 0 || lie)
        return;
    pthread_mutex_lock(&lock);
    record('S', path, 0, NULL, 0);  /* logged once the sync has returned: durable from here */
    pthread_mutex_unlock(&lock);
}

int fsync(int fd) {
    setup();
    int result = real_fsync(fd);
    synced(fd, result);
    return result;
}

int fdatasync(int fd) {
    setup();
    int result = real_fdatasync(fd);
    synced(fd, result);
    return result;
}

int unlink(const char *path) {
    setup();
    char *full = realpath(path, NULL);
    int result = real_unlink(path);
    if (result == 0 && log_fd >= 0 && watch != NULL && strstr(path, watch) != NULL) {
        pthread_mutex_lock(&lock);
        record('U', full != NULL ? full : path, 0, NULL, 0);
        pthread_mutex_unlock(&lock);
    }
    free(full);
    return result;
}
