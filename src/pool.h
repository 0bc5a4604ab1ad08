// SPDX-License-Identifier: MIT
// A small pool of worker threads: the batch update's parallel-for when the game supplies none. A build without
// threads (TREAD_NO_THREADS, set for WebAssembly) has no pool: tr_pool_create returns NULL and the work runs on
// the caller's thread.
#ifndef TREAD_POOL_H
#define TREAD_POOL_H

#include "core.h"

typedef struct tr_pool tr_pool;

// Most threads a pool runs (the caller's included).
#define TR_POOL_MAX_THREADS 64

// A pool of `threads` threads in all, the caller's included (threads - 1 workers). NULL when threads < 2, without
// threads in this build, or when the system refuses (the caller then runs everything itself).
tr_pool *tr_pool_create(int threads);
void tr_pool_destroy(tr_pool *pool);
// Threads in all (the caller's included).
int tr_pool_threads(const tr_pool *pool);
// The threads this machine has (at least 1).
int tr_pool_machine_threads(void);
// Run task(context, begin, end) over ranges of `grain` items covering [0, count) once each, on the workers and the
// caller's thread; returns when every range has run. Tasks must not depend on which thread runs which range.
void tr_pool_run(tr_pool *pool, tread_task_fn *task, void *context, int count, int grain);

#endif
