// SPDX-License-Identifier: GPL-2.0
/* A small consumer of the installed libkmodel: copy a buffer into a
 * simulated process and back through every uaccess variant, and show the
 * kernel events each one cost. */
#include <kmodel/kmodel.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	struct km_machine *m;
	struct km_mm *mm;
	struct km_task *t;
	unsigned long ubuf;
	char msg[] = "hello from the kernel side", back[sizeof(msg)];
	int err, bad = 0;

	err = km_machine_new(NULL, &m);		/* BeagleBone-like defaults */
	if (err) {
		fprintf(stderr, "km_machine_new: %s\n", km_last_error());
		return 1;
	}
	km_mm_new(m, &mm);
	km_task_new(m, mm, 0, &t);
	km_mm_put(mm);				/* the task holds it now */
	km_mmap(mm, 0, 8192, KM_PROT_READ | KM_PROT_WRITE, &ubuf);

	for (const struct km_uaccess_ops *const *v = km_uaccess_variants(); *v; v++) {
		struct km_events ev;

		km_events_reset(m);
		/* straddle the page boundary on purpose */
		unsigned long left = km_copy_to_user(t, *v, ubuf + 4090, msg, sizeof(msg));

		left += km_copy_from_user(t, *v, back, ubuf + 4090, sizeof(back));
		km_events_get(m, &ev);
		bad |= left || strcmp(back, msg);
		printf("%-20s not copied %lu, gup calls %llu, kmaps %llu, kmallocs %llu\n",
		       (*v)->name, left, (unsigned long long)ev.gup_calls,
		       (unsigned long long)(ev.kmap_high + ev.kmap_low),
		       (unsigned long long)ev.kmalloc_calls);
	}
	/* timing your own code: with counting off (km_events_set_counting())
	 * the copy runs the same and the counts stay where they were */
	{
		struct km_events before, after;

		km_events_get(m, &before);
		km_events_set_counting(m, false);
		bad |= km_copy_to_user(t, &km_uaccess_direct, ubuf, msg, sizeof(msg)) != 0;
		km_events_set_counting(m, true);
		km_events_get(m, &after);
		bad |= memcmp(&before, &after, sizeof(before)) != 0;
	}
	km_task_free(t);
	return km_machine_destroy(m) || bad;
}
