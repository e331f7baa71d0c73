// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfmk message queue and pfmk_read().
 *
 * Each context has a bounded queue of PFMK_MSGQ_LEN messages, as perfmon2
 * had.  Producers run in any context but NMI (overflow handlers defer to
 * irq_work before queueing); the consumer is pfmk_read().  The owner is
 * told of new messages through the completion given at creation, which it
 * may share with events of its own.
 *
 * Copyright (C) 2026 The pfmk authors
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/sched/signal.h>
#include <linux/wait_bit.h>

#include "internal.h"

/**
 * pfmk_msgq_init() - initialize an empty message queue
 * @q: the queue.
 */
void pfmk_msgq_init(struct pfmk_msgq *q)
{
	raw_spin_lock_init(&q->lock);
	q->head = 0;
	q->count = 0;
	q->dropped = 0;
}

/**
 * pfmk_msgq_push() - queue a message
 * @q: the queue.
 * @msg: the message, copied.
 *
 * Context: any context but NMI.
 * Return: false if the queue was full (the message is counted as dropped).
 */
bool pfmk_msgq_push(struct pfmk_msgq *q, const union pfm_msg *msg)
{
	unsigned long flags;
	bool queued = false;

	raw_spin_lock_irqsave(&q->lock, flags);
	if (q->count < PFMK_MSGQ_LEN) {
		q->msgs[(q->head + q->count) % PFMK_MSGQ_LEN] = *msg;
		q->count++;
		queued = true;
	} else {
		q->dropped++;
	}
	raw_spin_unlock_irqrestore(&q->lock, flags);
	return queued;
}

/**
 * pfmk_msgq_pop() - take the oldest message off a queue
 * @q: the queue.
 * @msg: output: the message.
 *
 * Context: any context but NMI.
 * Return: true if a message was taken.
 */
bool pfmk_msgq_pop(struct pfmk_msgq *q, union pfm_msg *msg)
{
	unsigned long flags;
	bool found = false;

	raw_spin_lock_irqsave(&q->lock, flags);
	if (q->count) {
		*msg = q->msgs[q->head];
		q->head = (q->head + 1) % PFMK_MSGQ_LEN;
		q->count--;
		found = true;
	}
	raw_spin_unlock_irqrestore(&q->lock, flags);
	return found;
}

/**
 * pfmk_msgq_flush() - drop every queued message
 * @q: the queue.
 *
 * Context: any context but NMI.
 */
void pfmk_msgq_flush(struct pfmk_msgq *q)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&q->lock, flags);
	q->head = 0;
	q->count = 0;
	raw_spin_unlock_irqrestore(&q->lock, flags);
}

/**
 * pfmk_msgq_read() - pfmk_read() on a referenced, unlocked context
 * @ctx: the context; the caller holds a reference but not ctx->mutex,
 *	so that pfmk_close() can run while this waits: it takes only the
 *	queue's lock, and orders itself against the close through
 *	ctx->readers and ctx->dead.
 * @msg: output: the message.
 * @noblock: do not wait.
 *
 * Context: process context; may sleep unless @noblock.
 * Return: sizeof(*msg) with a message, 0 if woken without one, -EAGAIN if
 * @noblock and the queue is empty, -ERESTARTSYS on a signal, -EBADF if the
 * context was closed.
 */
ssize_t pfmk_msgq_read(struct pfmk_ctx *ctx, union pfm_msg *msg,
		       int noblock)
{
	int ret;

	if (READ_ONCE(ctx->dead))
		return -EBADF;
	if (pfmk_msgq_pop(&ctx->msgq, msg))
		return sizeof(*msg);
	if (noblock)
		return -EAGAIN;

	atomic_inc(&ctx->readers);
	/* Order ->readers before ->dead; pairs with pfmk_ctx_close(). */
	smp_mb__after_atomic();
	if (READ_ONCE(ctx->dead))
		ret = -EBADF;
	else
		ret = wait_for_completion_interruptible(ctx->completion);
	if (atomic_dec_and_test(&ctx->readers))
		wake_up_var(&ctx->readers);
	if (ret)
		return ret;
	if (READ_ONCE(ctx->dead))
		return -EBADF;
	if (pfmk_msgq_pop(&ctx->msgq, msg))
		return sizeof(*msg);
	return 0;
}
