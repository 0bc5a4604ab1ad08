// SPDX-License-Identifier: MIT
// The batch update's built-in pool (pool.h): workers sleep on a condition variable between jobs; a job hands out
// ranges from an atomic counter, so a thread that finishes early takes more (the ranges, not the threads, decide
// the results: every range does the same work whoever runs it).
#define _POSIX_C_SOURCE 200809L // pthreads and sysconf under -std=c11
#include "pool.h"

#include <string.h>

#ifdef TREAD_NO_THREADS

tr_pool *tr_pool_create(int threads) {
    (void)threads;
    return NULL;
}
void tr_pool_destroy(tr_pool *pool) { (void)pool; }
int tr_pool_threads(const tr_pool *pool) {
    (void)pool;
    return 1;
}
int tr_pool_machine_threads(void) { return 1; }
void tr_pool_run(tr_pool *pool, tread_task_fn *task, void *context, int count, int grain) {
    (void)pool, (void)grain;
    if (count > 0) task(context, 0, count);
}

#else

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

struct tr_pool {
    pthread_t workers[TR_POOL_MAX_THREADS];
    int worker_count;
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    // The job under way (written under the lock before the wake-up).
    tread_task_fn *task;
    void *context;
    int count, grain;
    atomic_int next;
    int busy;            // workers still in the job
    unsigned generation; // bumped per job: a worker runs each job once
    bool quit;
};

static void run_ranges(tr_pool *p) {
    for (;;) {
        int begin = atomic_fetch_add(&p->next, p->grain);
        if (begin >= p->count) return;
        int end = p->count - begin > p->grain ? begin + p->grain : p->count;
        p->task(p->context, begin, end);
    }
}

static void *worker_main(void *arg) {
    tr_pool *p = (tr_pool *)arg;
    unsigned seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->generation == seen) pthread_cond_wait(&p->wake, &p->lock);
        if (p->quit) break;
        seen = p->generation;
        pthread_mutex_unlock(&p->lock);
        run_ranges(p);
        pthread_mutex_lock(&p->lock);
        if (--p->busy == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

tr_pool *tr_pool_create(int threads) {
    if (threads < 2) return NULL;
    if (threads > TR_POOL_MAX_THREADS) threads = TR_POOL_MAX_THREADS;
    tr_pool *p = (tr_pool *)tr_alloc(sizeof *p);
    if (!p) return NULL;
    memset(p, 0, sizeof *p);
    atomic_init(&p->next, 0);
    if (pthread_mutex_init(&p->lock, NULL) != 0) {
        tr_free(p);
        return NULL;
    }
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    for (int i = 0; i < threads - 1; ++i) {
        if (pthread_create(&p->workers[i], NULL, worker_main, p) != 0) break;
        ++p->worker_count;
    }
    if (p->worker_count == 0) {
        tr_pool_destroy(p);
        return NULL;
    }
    return p;
}

void tr_pool_destroy(tr_pool *p) {
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->worker_count; ++i) pthread_join(p->workers[i], NULL);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    tr_free(p);
}

int tr_pool_threads(const tr_pool *p) { return p ? p->worker_count + 1 : 1; }

int tr_pool_machine_threads(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > TR_POOL_MAX_THREADS ? TR_POOL_MAX_THREADS : (int)n;
}

void tr_pool_run(tr_pool *p, tread_task_fn *task, void *context, int count, int grain) {
    if (count <= 0) return;
    if (!p || count <= grain) {
        task(context, 0, count);
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->task = task;
    p->context = context;
    p->count = count;
    p->grain = grain < 1 ? 1 : grain;
    atomic_store(&p->next, 0);
    p->busy = p->worker_count;
    ++p->generation;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    run_ranges(p);
    pthread_mutex_lock(&p->lock);
    while (p->busy > 0) pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

#endif
