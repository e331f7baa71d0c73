// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fixture of coccinelle/pfmk_atomic_sleep.cocci: KAPI calls that may sleep,
 * made under a spinlock, in an RCU read-side section, with preemption off
 * and from an interrupt handler.  atomic_sleep_fixed.c is its corrected
 * twin.
 */
#include <linux/completion.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <pfmk/pfmk.h>

PFMK_IMPORT_NS();

struct as_state {
	spinlock_t	lock;	/* protects value and ctx_open */
	void __rcu	*desc;
	u64		value;
	u64		ctx_open;
	struct work_struct work;
};

static struct as_state as;

static int as_sample(void *desc)
{
	struct pfarg_pmd pmd = { .reg_num = 0 };
	struct pfmk_global_stats gs;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&as.lock, flags);
	ret = pfmk_read_pmds(desc, &pmd, 1);	/* expect: pfmk_atomic_sleep */
	if (!ret)
		as.value = pmd.reg_value;
	/* pfmk_get_global_stats() does not sleep. */
	if (!pfmk_get_global_stats(&gs))
		as.ctx_open = gs.ctx_open;
	spin_unlock_irqrestore(&as.lock, flags);
	return ret;
}

static int as_state_of(void)
{
	int state = -ENODEV;
	void *desc;

	rcu_read_lock();
	desc = rcu_dereference(as.desc);
	if (desc)
		state = pfmk_get_state(desc);	/* expect: pfmk_atomic_sleep */
	rcu_read_unlock();
	return state;
}

static int as_stop_here(void *desc)
{
	int ret;

	preempt_disable();
	ret = pfmk_stop(desc);	/* expect: pfmk_atomic_sleep */
	preempt_enable();
	return ret;
}

static irqreturn_t as_irq(int irq, void *data)
{
	void *desc = data;

	if (pfmk_restart(desc))	/* expect: pfmk_atomic_sleep */
		return IRQ_NONE;
	return IRQ_HANDLED;
}

static void as_work(struct work_struct *work)
{
}

static unsigned int as_irq_nr;
module_param(as_irq_nr, uint, 0444);

static int __init as_init(void)
{
	int ret;

	spin_lock_init(&as.lock);
	INIT_WORK(&as.work, as_work);
	ret = request_irq(as_irq_nr, as_irq, 0, KBUILD_MODNAME, NULL);
	if (ret)
		return ret;
	return as_sample(NULL) ?: as_state_of() ?: as_stop_here(NULL);
}

static void __exit as_exit(void)
{
	free_irq(as_irq_nr, NULL);
	cancel_work_sync(&as.work);
}

module_init(as_init);
module_exit(as_exit);
MODULE_DESCRIPTION("pfmk Coccinelle fixture: sleeping calls in atomic context");
MODULE_LICENSE("GPL");
