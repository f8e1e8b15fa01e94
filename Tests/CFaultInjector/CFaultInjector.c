// See CFaultInjector.h. A fixed table under one mutex: the calls under test are a few thousand
// per test, so a lock per call costs nothing that matters, and fixed storage keeps the injector
// from allocating inside the allocation-free paths it runs in (except the one record per thread
// started, freed by that thread).
#include "CFaultInjector.h"

#include <CKernelFaults.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/stat.h>

enum { MAX_RULES = 32, MAX_SCOPES = 64 };

typedef struct {
    int scope, calls, fd, error, skip, count, interrupt_each;
    unsigned long request;
} rule;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static rule rules[MAX_RULES];
static int rule_count;
static int injected[MAX_SCOPES];
static int seen[MAX_SCOPES][16];
static atomic_int next_scope = 1;

static __thread int thread_scope;
// interrupt-each: the (call, fd) pairs this thread was just interrupted in. A call whose pair is
// here is the retry and goes through (and leaves); any other call is interrupted (and enters).
// A set rather than "the last call": a retry loop of several calls (poll then read) would
// otherwise be interrupted in a different call each round and never finish.
enum { PENDING = 8 };
static __thread struct { int call, fd; } pending[PENDING];
static __thread int pending_count;

// 1 when this call is a retry of one just interrupted (and forgets it), else records it.
static int retry_of_interrupted(int call, int fd) {
    for (int i = 0; i < pending_count; i++)
        if (pending[i].call == call && pending[i].fd == fd) {
            pending[i] = pending[--pending_count];
            return 1;
        }
    if (pending_count == PENDING) pending_count = 0;
    pending[pending_count].call = call;
    pending[pending_count].fd = fd;
    pending_count++;
    return 0;
}

static int slot_of(int scope) { return scope % MAX_SCOPES; }

int fault_scope_begin(void) {
    fault_scope_end();
    int scope = atomic_fetch_add(&next_scope, 1);
    pthread_mutex_lock(&lock);
    injected[slot_of(scope)] = 0;
    for (int i = 0; i < 16; i++) seen[slot_of(scope)][i] = 0;
    pthread_mutex_unlock(&lock);
    thread_scope = scope;
    pending_count = 0;
    return scope;
}

void fault_scope_end(void) {
    int scope = thread_scope;
    if (scope == 0) return;
    pthread_mutex_lock(&lock);
    int kept = 0;
    for (int i = 0; i < rule_count; i++)
        if (rules[i].scope != scope) rules[kept++] = rules[i];
    rule_count = kept;
    pthread_mutex_unlock(&lock);
    thread_scope = 0;
}

static void add(rule r) {
    r.scope = thread_scope;
    if (r.scope == 0) abort(); // a rule outside a scope would hit every test in the process
    pthread_mutex_lock(&lock);
    if (rule_count == MAX_RULES) abort();
    rules[rule_count++] = r;
    pthread_mutex_unlock(&lock);
}

void fault_fail(int calls, int fd, unsigned long request, int error, int skip, int count) {
    add((rule){ .calls = calls, .fd = fd, .request = request, .error = error, .skip = skip, .count = count });
}

void fault_interrupt_each(int calls) {
    add((rule){ .calls = calls, .fd = -1, .error = EINTR, .count = -1, .interrupt_each = 1 });
}

int fault_injected(void) {
    pthread_mutex_lock(&lock);
    int n = thread_scope ? injected[slot_of(thread_scope)] : 0;
    pthread_mutex_unlock(&lock);
    return n;
}

int fault_calls_seen(int calls) {
    int n = 0;
    pthread_mutex_lock(&lock);
    for (int bit = 0; bit < 16; bit++)
        if (thread_scope && (calls & (1 << bit))) n += seen[slot_of(thread_scope)][bit];
    pthread_mutex_unlock(&lock);
    return n;
}

// Calls by path (fd -1) count as file calls; so does a descriptor on a file or folder.
static int is_file(int fd) {
    struct stat info;
    if (fd < 0) return 1;
    if (fstat(fd, &info) != 0) return 0;
    return S_ISREG(info.st_mode) || S_ISDIR(info.st_mode);
}

int bk_fault_for(int call, int fd, unsigned long detail) {
    int scope = thread_scope;
    if (scope == 0) return 0;
    int answer = 0;
    pthread_mutex_lock(&lock);
    for (int bit = 0; bit < 16; bit++)
        if (call & (1 << bit)) seen[slot_of(scope)][bit]++;
    for (int i = 0; i < rule_count; i++) {
        rule *r = &rules[i];
        if (r->scope != scope || !(r->calls & call) || r->count == 0) continue;
        if (r->fd == FAULT_FILES ? !is_file(fd) : (r->fd != FAULT_ANY_FD && r->fd != fd)) continue;
        if (r->request != 0 && r->request != detail) continue;
        if (r->interrupt_each) {
            if (retry_of_interrupted(call, fd)) break;
            answer = EINTR;
            break;
        }
        if (r->skip > 0) { r->skip--; continue; }
        if (r->count > 0) r->count--;
        answer = r->error;
        break;
    }
    if (answer) injected[slot_of(scope)]++;
    pthread_mutex_unlock(&lock);
    return answer;
}

typedef struct {
    void *(*body)(void *);
    void *context;
    int scope;
} started_thread;

static void *scoped_start(void *raw) {
    started_thread record = *(started_thread *)raw;
    free(raw);
    thread_scope = record.scope;
    return record.body(record.context);
}

void bk_fault_wrap_thread(void *(**body)(void *), void **context) {
    if (thread_scope == 0) return;
    started_thread *record = malloc(sizeof *record);
    if (!record) return;
    *record = (started_thread){ *body, *context, thread_scope };
    *body = scoped_start;
    *context = record;
}
