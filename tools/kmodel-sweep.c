// SPDX-License-Identifier: GPL-2.0
/*
 * kmodel-sweep: the exhaustive, shardable usbnet tx_fixup and rx_fixup
 * sweeps (km_sweep_run(), km_sweep_rx_run(), kmodel/sweep.h) and the merge
 * of their shards' JSON.
 *
 *   kmodel-sweep asix [--quick] [--shard K/N] [--variant NAME] [--sharing NAME] [--json]
 *   kmodel-sweep rx [--quick] [--shard K/N] [--variant NAME] [--json]
 *   kmodel-sweep asix|rx --variant NAME --replay STATE
 *   kmodel-sweep merge [--json] FILE.json...
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <kmodel/kmodel.h>
#include "km_tool.h"

#define PROG "kmodel-sweep"
/* the most shards (N of --shard K/N, of a report merged): the merge keeps a
 * slot per shard, so a bad N in a file costs no gigabytes */
#define SHARDS_MAX 1000000
/* a report of this tool is nested 5 deep (report, variants, a variant,
 * findings, a finding, its example) and a few MiB at most */
#define MERGE_DEPTH_MAX 32
#define MERGE_FILE_MAX (256 << 20)

struct sweep_opts {
	gboolean quick, json, progress, fail_on_findings;
	gint timeout;		/* --timeout: seconds a plugin's variant may take */
	gchar *shard;
	gchar *replay;
	gchar **variants;
	gchar **sharings;
	gchar **load;
};

/* ---- the report (one model for a run and a merge) ---------------------------- */

struct finding {
	gchar *rule;
	guint64 count;
	struct km_sweep_state ex;	/* a tx report's */
	struct km_sweep_rx_state rx;	/* an rx report's */
};

struct vresult {
	gchar *name;
	guint64 states;
	GArray *findings;	/* struct finding, first-seen order */
	gchar *crashed;		/* a plugin's variant that crashed or timed out: why */
	gchar *crashed_state;	/* ... in this state, as --replay takes it (or NULL) */
};

/* The space a run covers (part of) and which part: what a merge checks */
struct space {
	unsigned int k, n;	/* shard K of N (1-based) */
	gboolean quick;
	GPtrArray *variants;	/* names (gchar *), in the order run */
	GPtrArray *sharings;	/* names (gchar *), every one run */
	guint64 states;		/* of the whole space, all shards */
};

struct report {
	gboolean rx;		/* kmodel-sweep rx's (JSON "sweep": "rx") */
	guint64 states;
	double seconds;
	double cpu_seconds;	/* a run's (not in the JSON); 0 after a merge */
	struct space space;
	GPtrArray *variants;	/* struct vresult * */
};

static void vresult_free(gpointer p)
{
	struct vresult *v = p;

	for (guint i = 0; i < v->findings->len; i++)
		g_free(g_array_index(v->findings, struct finding, i).rule);
	g_array_free(v->findings, TRUE);
	g_free(v->name);
	g_free(v->crashed);
	g_free(v->crashed_state);
	g_free(v);
}

static void report_init(struct report *r)
{
	memset(r, 0, sizeof(*r));
	r->variants = g_ptr_array_new_with_free_func(vresult_free);
	r->space.variants = g_ptr_array_new_with_free_func(g_free);
	r->space.sharings = g_ptr_array_new_with_free_func(g_free);
}

static void report_fini(struct report *r)
{
	g_ptr_array_free(r->variants, TRUE);
	g_ptr_array_free(r->space.variants, TRUE);
	g_ptr_array_free(r->space.sharings, TRUE);
}

static struct vresult *report_variant(struct report *r, const char *name)
{
	struct vresult *v;

	for (guint i = 0; i < r->variants->len; i++) {
		v = g_ptr_array_index(r->variants, i);
		if (!strcmp(v->name, name))
			return v;
	}
	v = g_new0(struct vresult, 1);
	v->name = g_strdup(name);
	v->findings = g_array_new(FALSE, TRUE, sizeof(struct finding));
	g_ptr_array_add(r->variants, v);
	return v;
}

/* add @count states of @rule with example @ex or @rx (the one not NULL;
 * the smaller example stays) */
static void report_add(struct vresult *v, const char *rule, guint64 count,
		       const struct km_sweep_state *ex, const struct km_sweep_rx_state *rx)
{
	struct finding f = { 0 };

	for (guint i = 0; i < v->findings->len; i++) {
		struct finding *g = &g_array_index(v->findings, struct finding, i);

		if (strcmp(g->rule, rule))
			continue;
		g->count += count;
		if (ex && km_sweep_state_cmp(ex, &g->ex) < 0)
			g->ex = *ex;
		if (rx && km_sweep_rx_state_cmp(rx, &g->rx) < 0)
			g->rx = *rx;
		return;
	}
	f.rule = g_strdup(rule);
	f.count = count;
	if (ex)
		f.ex = *ex;
	if (rx)
		f.rx = *rx;
	g_array_append_val(v->findings, f);
}

static void report_from_result(struct report *r, const struct km_sweep_result *res)
{
	r->states += res->states;
	r->seconds += res->seconds;
	r->cpu_seconds += res->cpu_seconds;
	for (size_t i = 0; i < res->nvariants; i++) {
		const struct km_sweep_variant_result *vr = &res->variants[i];
		struct vresult *v = report_variant(r, vr->name);

		v->states += vr->states;
		for (size_t f = 0; f < vr->nfindings; f++)
			report_add(v, vr->findings[f].rule, vr->findings[f].count,
				   &vr->findings[f].example, NULL);
	}
}

static void report_from_rx_result(struct report *r, const struct km_sweep_rx_result *res)
{
	r->rx = TRUE;
	r->states += res->states;
	r->seconds += res->seconds;
	r->cpu_seconds += res->cpu_seconds;
	for (size_t i = 0; i < res->nvariants; i++) {
		const struct km_sweep_rx_variant_result *vr = &res->variants[i];
		struct vresult *v = report_variant(r, vr->name);

		v->states += vr->states;
		for (size_t f = 0; f < vr->nfindings; f++)
			report_add(v, vr->findings[f].rule, vr->findings[f].count, NULL,
				   &vr->findings[f].example);
	}
}

/* findings in all variants (--fail-on-findings) */
static guint report_findings(const struct report *r)
{
	guint n = 0;

	for (guint i = 0; i < r->variants->len; i++)
		n += ((struct vresult *)g_ptr_array_index(r->variants, i))->findings->len;
	return n;
}

/* ---- output ------------------------------------------------------------------ */

static gint finding_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(((const struct finding *)a)->rule, ((const struct finding *)b)->rule);
}

/* findings by rule name: a run and the merge of its shards print alike */
static void report_sort(struct report *r)
{
	for (guint i = 0; i < r->variants->len; i++)
		g_array_sort(((struct vresult *)g_ptr_array_index(r->variants, i))->findings,
			     finding_cmp);
}

/* a state as --replay takes it: tx LEN,HEADROOM,TAILROOM|default,SHARING,
 * SPEED/MAXPACKET; rx LEN,FRAMES,MUTATION,SPLIT,SPEED/MAXPACKET */
static gchar *tx_state_arg(const struct km_sweep_state *t)
{
	char tail[16];

	if (t->tailroom < 0)
		g_strlcpy(tail, "default", sizeof(tail));
	else
		g_snprintf(tail, sizeof(tail), "%d", t->tailroom);
	return g_strdup_printf("%u,%u,%s,%s,%s/%u", t->len, t->headroom, tail,
			       km_sweep_sharing_name(t->sharing), km_usb_speed_name(t->speed),
			       t->maxpacket);
}

static gchar *rx_state_arg(const struct km_sweep_rx_state *st)
{
	return g_strdup_printf("%u,%u,%s,%s,%s/%u", st->len, st->frames,
			       km_sweep_rx_mutation_name(st->mutation),
			       km_sweep_rx_split_name(st->split), km_usb_speed_name(st->speed),
			       st->maxpacket);
}

/* a finding's example as the --replay that runs it (copy-pasteable) */
static void example_text(const struct finding *g, bool rx, char *buf, size_t n)
{
	gchar *arg = rx ? rx_state_arg(&g->rx) : tx_state_arg(&g->ex);

	g_snprintf(buf, n, "--replay %s", arg);
	g_free(arg);
}

static void print_table(const struct report *r)
{
	printf("%" G_GUINT64_FORMAT " states", r->states);
	if (r->space.n > 1)
		printf(" (shard %u/%u of %" G_GUINT64_FORMAT ")", r->space.k, r->space.n,
		       r->space.states);
	printf(" in %.2f s (%.2f M states/s)", r->seconds,
	       r->seconds > 0 ? (double)r->states / r->seconds / 1e6 : 0.0);
	if (r->cpu_seconds > 0)
		printf(", %.2f s of CPU (%.2f M states per CPU-second)", r->cpu_seconds,
		       (double)r->states / r->cpu_seconds / 1e6);
	printf("\n");
	for (guint i = 0; i < r->variants->len; i++) {
		const struct vresult *v = g_ptr_array_index(r->variants, i);

		printf("\n%s: %" G_GUINT64_FORMAT " states, %u finding%s\n", v->name, v->states,
		       v->findings->len, v->findings->len == 1 ? "" : "s");
		if (v->crashed)
			printf("  %s: no result past the states above\n", v->crashed);
		for (guint f = 0; f < v->findings->len; f++) {
			const struct finding *g = &g_array_index(v->findings, struct finding, f);
			char ex[128];

			example_text(g, r->rx, ex, sizeof(ex));
			printf("  %-24s %12" G_GUINT64_FORMAT "  e.g. %s\n", g->rule, g->count, ex);
		}
	}
}

static void member_int(JsonBuilder *b, const char *name, gint64 v)
{
	json_builder_set_member_name(b, name);
	json_builder_add_int_value(b, v);
}

static void member_str(JsonBuilder *b, const char *name, const char *v)
{
	json_builder_set_member_name(b, name);
	json_builder_add_string_value(b, v);
}

static void member_names(JsonBuilder *b, const char *name, const GPtrArray *names)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_array(b);
	for (guint i = 0; i < names->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(names, i));
	json_builder_end_array(b);
}

static void print_json(const struct report *r)
{
	JsonBuilder *b = json_builder_new();
	JsonGenerator *gen = json_generator_new();
	JsonNode *root;
	gchar *text;

	json_builder_begin_object(b);
	member_str(b, "sweep", r->rx ? "rx" : "asix");
	member_int(b, "states", (gint64)r->states);
	json_builder_set_member_name(b, "seconds");
	json_builder_add_double_value(b, r->seconds);
	json_builder_set_member_name(b, "shard");
	json_builder_begin_object(b);
	member_int(b, "k", r->space.k);
	member_int(b, "n", r->space.n);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "space");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "quick");
	json_builder_add_boolean_value(b, r->space.quick);
	member_names(b, "variants", r->space.variants);
	member_names(b, "sharings", r->space.sharings);
	member_int(b, "states", (gint64)r->space.states);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "variants");
	json_builder_begin_array(b);
	for (guint i = 0; i < r->variants->len; i++) {
		const struct vresult *v = g_ptr_array_index(r->variants, i);

		json_builder_begin_object(b);
		member_str(b, "name", v->name);
		member_int(b, "states", (gint64)v->states);
		if (v->crashed)
			member_str(b, "crashed", v->crashed);
		if (v->crashed_state)
			member_str(b, "crashed_state", v->crashed_state);
		json_builder_set_member_name(b, "findings");
		json_builder_begin_array(b);
		for (guint f = 0; f < v->findings->len; f++) {
			const struct finding *g = &g_array_index(v->findings, struct finding, f);
			const struct km_sweep_state *e = &g->ex;

			json_builder_begin_object(b);
			member_str(b, "rule", g->rule);
			member_int(b, "count", (gint64)g->count);
			json_builder_set_member_name(b, "example");
			json_builder_begin_object(b);
			if (r->rx) {
				const struct km_sweep_rx_state *x = &g->rx;

				member_str(b, "speed", km_usb_speed_name(x->speed));
				member_int(b, "maxpacket", x->maxpacket);
				member_int(b, "len", x->len);
				member_int(b, "frames", x->frames);
				member_str(b, "mutation", km_sweep_rx_mutation_name(x->mutation));
				member_str(b, "split", km_sweep_rx_split_name(x->split));
				json_builder_end_object(b);
				json_builder_end_object(b);
				continue;
			}
			member_str(b, "speed", km_usb_speed_name(e->speed));
			member_int(b, "maxpacket", e->maxpacket);
			member_str(b, "sharing", km_sweep_sharing_name(e->sharing));
			member_int(b, "len", e->len);
			member_int(b, "headroom", e->headroom);
			json_builder_set_member_name(b, "tailroom");
			if (e->tailroom < 0)
				json_builder_add_string_value(b, "default");
			else
				json_builder_add_int_value(b, e->tailroom);
			member_int(b, "tail_bytes", e->tail_bytes);
			json_builder_end_object(b);
			json_builder_end_object(b);
		}
		json_builder_end_array(b);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	json_generator_set_root(gen, root);
	json_generator_set_pretty(gen, TRUE);
	text = json_generator_to_data(gen, NULL);
	printf("%s\n", text);
	g_free(text);
	json_node_unref(root);
	g_object_unref(gen);
	g_object_unref(b);
}

/* ---- merge ------------------------------------------------------------------- */

static enum km_usb_speed speed_by_name(const char *s)
{
	static const enum km_usb_speed all[] = { KM_USB_SPEED_LOW, KM_USB_SPEED_FULL,
						 KM_USB_SPEED_HIGH, KM_USB_SPEED_SUPER };

	for (size_t i = 0; s && i < G_N_ELEMENTS(all); i++)
		if (!strcmp(s, km_usb_speed_name(all[i])))
			return all[i];
	return KM_USB_SPEED_UNKNOWN;
}

static int sharing_by_name(const char *s)
{
	for (int i = 0; s && i < KM_SWEEP_SHARING_COUNT; i++)
		if (!strcmp(s, km_sweep_sharing_name((enum km_sweep_sharing)i)))
			return i;
	return -1;
}

/* a non-negative integer member of @o, or -1 */
static gint64 int_member(JsonObject *o, const char *name)
{
	JsonNode *n = o ? json_object_get_member(o, name) : NULL;

	if (!n || json_node_get_value_type(n) != G_TYPE_INT64)
		return -1;
	return json_node_get_int(n);
}

static const char *string_member(JsonObject *o, const char *name)
{
	JsonNode *n = o ? json_object_get_member(o, name) : NULL;

	if (!n || json_node_get_value_type(n) != G_TYPE_STRING)
		return NULL;
	return json_node_get_string(n);
}

static bool parse_example(JsonObject *o, struct km_sweep_state *e)
{
	JsonNode *tail = o ? json_object_get_member(o, "tailroom") : NULL;
	gint64 mp = int_member(o, "maxpacket"), len = int_member(o, "len");
	gint64 head = int_member(o, "headroom"), tb = int_member(o, "tail_bytes");
	int sharing = sharing_by_name(string_member(o, "sharing"));

	e->speed = speed_by_name(string_member(o, "speed"));
	if (!tail || mp < 0 || len < 0 || head < 0 || sharing < 0 || tb < 0 ||
	    e->speed == KM_USB_SPEED_UNKNOWN)
		return false;
	if (json_node_get_value_type(tail) == G_TYPE_STRING &&
	    !strcmp(json_node_get_string(tail), "default"))
		e->tailroom = KM_SWEEP_TAIL_DEFAULT;
	else if (json_node_get_value_type(tail) == G_TYPE_INT64 && json_node_get_int(tail) >= 0)
		e->tailroom = (int)json_node_get_int(tail);
	else
		return false;
	e->maxpacket = (unsigned int)mp;
	e->len = (unsigned int)len;
	e->headroom = (unsigned int)head;
	e->tail_bytes = (unsigned int)tb;
	e->sharing = (enum km_sweep_sharing)sharing;
	return true;
}

static int name_index(const char *s, const char *(*name)(unsigned int), unsigned int n)
{
	for (unsigned int i = 0; s && i < n; i++)
		if (!strcmp(s, name(i)))
			return (int)i;
	return -1;
}

static bool parse_rx_example(JsonObject *o, struct km_sweep_rx_state *e)
{
	gint64 mp = int_member(o, "maxpacket"), len = int_member(o, "len");
	gint64 frames = int_member(o, "frames");
	int mu = name_index(string_member(o, "mutation"), km_sweep_rx_mutation_name,
			    KM_SWEEP_RX_MUTATION_COUNT);
	int sp = name_index(string_member(o, "split"), km_sweep_rx_split_name,
			    KM_SWEEP_RX_SPLIT_COUNT);

	e->speed = speed_by_name(string_member(o, "speed"));
	if (mp < 0 || len < 0 || frames < 0 || mu < 0 || sp < 0 ||
	    e->speed == KM_USB_SPEED_UNKNOWN)
		return false;
	e->maxpacket = (unsigned int)mp;
	e->len = (unsigned int)len;
	e->frames = (unsigned int)frames;
	e->mutation = (unsigned int)mu;
	e->split = (unsigned int)sp;
	return true;
}

static gboolean names_equal(const GPtrArray *a, const GPtrArray *b)
{
	if (a->len != b->len)
		return FALSE;
	for (guint i = 0; i < a->len; i++)
		if (strcmp(g_ptr_array_index(a, i), g_ptr_array_index(b, i)))
			return FALSE;
	return TRUE;
}

/* an array member of strings into @out; false when missing or not strings */
static bool names_member(JsonObject *o, const char *name, GPtrArray *out)
{
	JsonNode *n = o ? json_object_get_member(o, name) : NULL;
	JsonArray *a;

	if (!n || !JSON_NODE_HOLDS_ARRAY(n))
		return false;
	a = json_node_get_array(n);
	for (guint i = 0; i < json_array_get_length(a); i++) {
		JsonNode *e = json_array_get_element(a, i);

		if (json_node_get_value_type(e) != G_TYPE_STRING)
			return false;
		g_ptr_array_add(out, g_strdup(json_node_get_string(e)));
	}
	return true;
}

static JsonObject *object_member(JsonObject *o, const char *name)
{
	JsonNode *n = o ? json_object_get_member(o, name) : NULL;

	return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

/* the shard and space a report says it covers; false when it says none */
static bool parse_space(JsonObject *top, struct space *sp)
{
	JsonObject *shard = object_member(top, "shard"), *space = object_member(top, "space");
	JsonNode *quick = space ? json_object_get_member(space, "quick") : NULL;
	gint64 k = int_member(shard, "k"), n = int_member(shard, "n");
	gint64 states = int_member(space, "states");

	if (k < 1 || n < k || n > SHARDS_MAX || states < 0 || !quick ||
	    json_node_get_value_type(quick) != G_TYPE_BOOLEAN ||
	    !names_member(space, "variants", sp->variants) ||
	    !names_member(space, "sharings", sp->sharings))
		return false;
	sp->k = (unsigned int)k;
	sp->n = (unsigned int)n;
	sp->quick = json_node_get_boolean(quick);
	sp->states = (guint64)states;
	return true;
}

static bool parse_tx_state(const char *s, const struct km_usbnet_variant *v,
			   struct km_sweep_state *st);
static bool parse_rx_state(const char *s, const struct km_usbnet_variant *v,
			   struct km_sweep_rx_state *st);

/* is the state @a (as --replay takes it, with its endpoint) run before
 * @b in the sweep? -1: either is no state of @rx's sweep */
static int run_before(const char *a, const char *b, bool rx)
{
	struct km_sweep_state ta, tb;
	struct km_sweep_rx_state xa, xb;

	/* (a state without its endpoint is at a variant's first: with no
	 * variant, none, and the parse fails) */
	if (rx)
		return !parse_rx_state(a, NULL, &xa) || !parse_rx_state(b, NULL, &xb) ? -1 :
		       km_sweep_rx_state_run_cmp(&xa, &xb) < 0;
	return !parse_tx_state(a, NULL, &ta) || !parse_tx_state(b, NULL, &tb) ? -1 :
	       km_sweep_state_run_cmp(&ta, &tb) < 0;
}

/* a variant that crashed or timed out in shard @k of @n (@vo's "crashed",
 * "crashed_state") onto @v: each shard's cause said, and the state the
 * sweep runs first kept (its shards run at once, any of them first);
 * -1 for members that are not strings, or a state that is none of the
 * (@rx) sweep's */
static int merge_crashed(struct vresult *v, JsonObject *vo, unsigned int k, unsigned int n,
			 bool rx)
{
	const char *why = string_member(vo, "crashed"), *st = string_member(vo, "crashed_state");
	gchar *had = v->crashed;
	int before = 1;

	if ((json_object_has_member(vo, "crashed") && !why) ||
	    (json_object_has_member(vo, "crashed_state") && !st))
		return -1;
	if (st && (before = run_before(st, v->crashed_state ? v->crashed_state : st, rx)) < 0)
		return -1;
	if (!why)
		return 0;
	v->crashed = had ? g_strdup_printf("%s; %s, in shard %u/%u", had, why, k, n)
			 : g_strdup_printf("%s, in shard %u/%u", why, k, n);
	g_free(had);
	if (st && (!v->crashed_state || before)) {
		g_free(v->crashed_state);
		v->crashed_state = g_strdup(st);
	}
	return 0;
}

/* fold one shard's JSON into @r; 0 or -1 (message printed). The shard's
 * space must be @r's (the first file's); @seen[k - 1] marks shards read. */
static int merge_file(struct report *r, const char *path, GPtrArray *seen)
{
	JsonParser *p = json_parser_new();
	GError *err = NULL;
	JsonObject *top;
	JsonArray *vs;
	JsonNode *seconds;
	gint64 states;
	struct space sp = { .variants = g_ptr_array_new_with_free_func(g_free),
			    .sharings = g_ptr_array_new_with_free_func(g_free) };
	GHashTable *names = NULL, *rules = NULL;	/* of this file: each once */
	gchar *text = NULL;
	gsize len = 0;
	guint64 vsum = 0;
	int rc = -1;

	if (km_tool_read_file(PROG, path, "kmodel-sweep report", MERGE_FILE_MAX, &text, &len))
		goto out;
	if (km_tool_json_depth(text, len, MERGE_DEPTH_MAX) > MERGE_DEPTH_MAX) {
		fprintf(stderr, PROG ": %s: nested deeper than %d levels: not a kmodel-sweep "
			"report\n", path, MERGE_DEPTH_MAX);
		goto out;
	}
	if (!json_parser_load_from_data(p, text, (gssize)len, &err)) {
		fprintf(stderr, PROG ": %s: %s\n", path, err->message);
		goto out;
	}
	/* an empty document parses to no root (it went on to a
	 * json-glib CRITICAL) */
	if (!json_parser_get_root(p)) {
		fprintf(stderr, PROG ": %s: empty, not a kmodel-sweep report\n", path);
		goto out;
	}
	top = JSON_NODE_HOLDS_OBJECT(json_parser_get_root(p)) ?
	      json_node_get_object(json_parser_get_root(p)) : NULL;
	states = int_member(top, "states");
	seconds = top ? json_object_get_member(top, "seconds") : NULL;
	vs = top && json_object_has_member(top, "variants") &&
	     JSON_NODE_HOLDS_ARRAY(json_object_get_member(top, "variants")) ?
	     json_object_get_array_member(top, "variants") : NULL;
	if (states < 0 || !seconds || !JSON_NODE_HOLDS_VALUE(seconds) || !vs) {
		fprintf(stderr, PROG ": %s: not a kmodel-sweep report (states, seconds, variants)\n",
			path);
		goto out;
	}
	{
		const char *kind = string_member(top, "sweep");
		gboolean rx = kind && !strcmp(kind, "rx");

		if (seen->len && rx != r->rx) {
			fprintf(stderr, PROG ": %s: an %s report among %s ones\n", path,
				rx ? "rx" : "asix", r->rx ? "rx" : "asix");
			goto out;
		}
		r->rx = rx;
	}
	if (!parse_space(top, &sp)) {
		fprintf(stderr, PROG ": %s: no shard and space (K/N with 1 <= K <= N <= "
			G_STRINGIFY(SHARDS_MAX) ", quick, variants, sharings, states): not written "
			"by this kmodel-sweep --json\n", path);
		goto out;
	}
	if (!seen->len) {		/* the first file sets the space */
		r->space.n = sp.n;
		r->space.quick = sp.quick;
		r->space.states = sp.states;
		for (guint i = 0; i < sp.variants->len; i++)
			g_ptr_array_add(r->space.variants, g_strdup(g_ptr_array_index(sp.variants, i)));
		for (guint i = 0; i < sp.sharings->len; i++)
			g_ptr_array_add(r->space.sharings, g_strdup(g_ptr_array_index(sp.sharings, i)));
		g_ptr_array_set_size(seen, sp.n);
	} else if (sp.n != r->space.n || sp.quick != r->space.quick ||
		   sp.states != r->space.states || !names_equal(sp.variants, r->space.variants) ||
		   !names_equal(sp.sharings, r->space.sharings)) {
		fprintf(stderr, PROG ": %s: shard %u/%u of another sweep than the first file's "
			"(N, --quick, variants or sharings differ)\n", path, sp.k, sp.n);
		goto out;
	}
	if (g_ptr_array_index(seen, sp.k - 1)) {
		fprintf(stderr, PROG ": %s: shard %u/%u is also in %s\n", path, sp.k, sp.n,
			(const char *)g_ptr_array_index(seen, sp.k - 1));
		goto out;
	}
	g_ptr_array_index(seen, sp.k - 1) = (gpointer)path;
	r->states += (guint64)states;
	r->seconds += json_node_get_double(seconds);
	names = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; i < json_array_get_length(vs); i++) {
		JsonObject *vo = JSON_NODE_HOLDS_OBJECT(json_array_get_element(vs, i)) ?
				 json_array_get_object_element(vs, i) : NULL;
		const char *name = string_member(vo, "name");
		gint64 vstates = int_member(vo, "states");
		JsonArray *fs = vo && json_object_has_member(vo, "findings") &&
				JSON_NODE_HOLDS_ARRAY(json_object_get_member(vo, "findings")) ?
				json_object_get_array_member(vo, "findings") : NULL;
		struct vresult *v;

		if (!name || vstates < 0 || !fs) {
			fprintf(stderr, PROG ": %s: variant %u is malformed\n", path, i);
			goto out;
		}
		/* one variant twice added its states twice (more
		 * than its space); a report of this tool holds each variant of
		 * its space once, each rule once, and its variants' states
		 * make its states */
		if (!g_ptr_array_find_with_equal_func(sp.variants, name, g_str_equal, NULL)) {
			fprintf(stderr, PROG ": %s: variant %s is not in the report's space\n",
				path, name);
			goto out;
		}
		if (!g_hash_table_add(names, (gpointer)name)) {
			fprintf(stderr, PROG ": %s: variant %s is in the report twice\n", path, name);
			goto out;
		}
		vsum += (guint64)vstates;
		v = report_variant(r, name);
		v->states += (guint64)vstates;
		if (merge_crashed(v, vo, sp.k, sp.n, r->rx)) {
			fprintf(stderr, PROG ": %s: %s: \"crashed\" or \"crashed_state\" is not a "
				"string, or \"crashed_state\" not a state of the sweep\n", path, name);
			goto out;
		}
		rules = g_hash_table_new(g_str_hash, g_str_equal);
		for (guint f = 0; f < json_array_get_length(fs); f++) {
			JsonObject *fo = JSON_NODE_HOLDS_OBJECT(json_array_get_element(fs, f)) ?
					 json_array_get_object_element(fs, f) : NULL;
			const char *rule = string_member(fo, "rule");
			gint64 count = int_member(fo, "count");
			struct km_sweep_state ex = { 0 };
			struct km_sweep_rx_state rx = { 0 };
			JsonObject *eo = fo && json_object_has_member(fo, "example") &&
					 JSON_NODE_HOLDS_OBJECT(json_object_get_member(fo, "example")) ?
					 json_object_get_object_member(fo, "example") : NULL;

			if (!rule || count < 0 || !eo ||
			    !(r->rx ? parse_rx_example(eo, &rx) : parse_example(eo, &ex))) {
				fprintf(stderr, PROG ": %s: %s: finding %u is malformed\n", path, name, f);
				goto out;
			}
			if (!g_hash_table_add(rules, (gpointer)rule)) {
				fprintf(stderr, PROG ": %s: %s: rule %s is in the report twice\n",
					path, name, rule);
				goto out;
			}
			if (count > vstates) {
				fprintf(stderr, PROG ": %s: %s: rule %s counts %" G_GINT64_FORMAT
					" states of the variant's %" G_GINT64_FORMAT "\n", path, name,
					rule, count, vstates);
				goto out;
			}
			report_add(v, rule, (guint64)count, r->rx ? NULL : &ex, r->rx ? &rx : NULL);
		}
		g_clear_pointer(&rules, g_hash_table_destroy);
	}
	if (vsum != (guint64)states) {
		fprintf(stderr, PROG ": %s: its variants hold %" G_GUINT64_FORMAT " states, the "
			"report says %" G_GINT64_FORMAT "\n", path, vsum, states);
		goto out;
	}
	rc = 0;
out:
	if (names)
		g_hash_table_destroy(names);
	if (rules)
		g_hash_table_destroy(rules);
	g_ptr_array_free(sp.variants, TRUE);
	g_ptr_array_free(sp.sharings, TRUE);
	g_clear_error(&err);
	g_object_unref(p);
	g_free(text);
	return rc;
}

/* ---- the sweep ------------------------------------------------------------------- */

static void progress(void *arg, uint64_t done, uint64_t total)
{
	fprintf(stderr, "\r" PROG ": %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " states (%.0f%%)",
		(guint64)done, (guint64)total, total ? 100.0 * (double)done / (double)total : 100.0);
	if (done >= total)
		fputc('\n', stderr);
}

/* "K/N", 1 <= K <= N: digits only (strtoul() would take " 1" and "+1",
 * while "1 " was refused) */
static bool parse_shard(const char *s, unsigned int *k, unsigned int *n)
{
	char *end;
	unsigned long a, b;

	errno = 0;
	if (!g_ascii_isdigit(*s))
		return false;
	a = strtoul(s, &end, 10);
	if (end == s || *end != '/' || errno)
		return false;
	s = end + 1;
	if (!g_ascii_isdigit(*s))
		return false;
	b = strtoul(s, &end, 10);
	if (end == s || *end || errno || !a || a > b || b > SHARDS_MAX)
		return false;
	*k = (unsigned int)a;
	*n = (unsigned int)b;
	return true;
}

/* ---- the runs: built-ins here, a plugin's variant in a child ---------------- */

/* A sweep, tx (kmodel-sweep asix) or rx: its config; the variants are
 * set per run */
struct sweep_job {
	bool rx;
	struct km_sweep_config cfg;
	struct km_sweep_rx_config rx_cfg;
	const struct km_usbnet_variant *v[2];	/* a child's variant */
	struct sweep_where *where;	/* a child's state, shared with us */
};

/* the state a child's sweep is in: the last it began (none: @begun 0) */
struct sweep_where {
	bool begun;
	struct km_sweep_state tx;
	struct km_sweep_rx_state rx;
};

/* is @v the library's (run here), not a plugin's (run in a child)? */
static bool builtin(struct km_registry *reg, const struct km_usbnet_variant *v)
{
	return km_registry_builtin(reg, v) || km_usbnet_find_any(v->name) == v;
}

/* @j's sweep of @vs into @r, in this process; 0 or its error */
static int sweep_here(struct sweep_job *j, const struct km_usbnet_variant *const *vs,
		      struct report *r)
{
	int err;

	if (j->rx) {
		struct km_sweep_rx_result *res = NULL;

		j->rx_cfg.variants = vs;
		err = km_sweep_rx_run(&j->rx_cfg, &res);
		if (!err)
			report_from_rx_result(r, res);
		km_sweep_rx_result_free(res);
	} else {
		struct km_sweep_result *res = NULL;

		j->cfg.variants = vs;
		err = km_sweep_run(&j->cfg, &res);
		if (!err)
			report_from_result(r, res);
		km_sweep_result_free(res);
	}
	return err;
}

/* the child's on_state: the state about to run, where the parent reads it */
static void note_state(void *arg, const struct km_usbnet_variant *v,
		       const struct km_sweep_state *st)
{
	struct sweep_where *w = arg;

	(void)v;
	w->tx = *st;
	w->begun = true;
}

static void note_rx_state(void *arg, const struct km_usbnet_variant *v,
			  const struct km_sweep_rx_state *st)
{
	struct sweep_where *w = arg;

	(void)v;
	w->rx = *st;
	w->begun = true;
}

/* A plugin's variant swept in a forked child (km_tool_isolated()), so
 * that its crash or loop fails its row instead of the tool. The child
 * sends its error and message, or its report: states, seconds, CPU
 * seconds, then per finding its rule (NUL-terminated), count and
 * examples. */
static int sweep_child(void *arg, GByteArray *out)
{
	struct sweep_job *j = arg;
	struct report r;
	int err;

	j->cfg.progress = NULL;
	j->rx_cfg.progress = NULL;
	if (j->where && j->rx) {
		j->rx_cfg.on_state = note_rx_state;
		j->rx_cfg.on_state_arg = j->where;
	} else if (j->where) {
		j->cfg.on_state = note_state;
		j->cfg.on_state_arg = j->where;
	}
	report_init(&r);
	err = sweep_here(j, j->v, &r);
	g_byte_array_append(out, (const guint8 *)&err, sizeof(err));
	if (err) {
		g_byte_array_append(out, (const guint8 *)km_last_error(),
				    (guint)strlen(km_last_error()) + 1);
		report_fini(&r);
		return 0;
	}
	g_byte_array_append(out, (const guint8 *)&r.states, sizeof(r.states));
	g_byte_array_append(out, (const guint8 *)&r.seconds, sizeof(r.seconds));
	g_byte_array_append(out, (const guint8 *)&r.cpu_seconds, sizeof(r.cpu_seconds));
	for (guint i = 0; i < r.variants->len; i++) {
		const struct vresult *v = g_ptr_array_index(r.variants, i);

		for (guint f = 0; f < v->findings->len; f++) {
			const struct finding *fd = &g_array_index(v->findings, struct finding, f);

			g_byte_array_append(out, (const guint8 *)fd->rule, (guint)strlen(fd->rule) + 1);
			g_byte_array_append(out, (const guint8 *)&fd->count, sizeof(fd->count));
			g_byte_array_append(out, (const guint8 *)&fd->ex, sizeof(fd->ex));
			g_byte_array_append(out, (const guint8 *)&fd->rx, sizeof(fd->rx));
		}
	}
	report_fini(&r);
	return 0;
}

/* @w's state as --replay takes it */
static gchar *state_arg(const struct sweep_where *w, bool rx)
{
	return rx ? rx_state_arg(&w->rx) : tx_state_arg(&w->tx);
}

/* what a plugin's variant @v that crashed or timed out (@why; NULL: no
 * result) says, on its row and stderr alike: where -- the state @st, as
 * --replay takes it (NULL: before its first), and the usbnet era its
 * machines run -- so the user can replay it */
static gchar *crash_text(const char *why, const struct km_usbnet_variant *v, const char *st)
{
	return g_strdup_printf("%s, %s%s (usbnet %s)", why ? why : "crashed: no result",
			       st ? "in the state " : "before its first state", st ? st : "",
			       km_usbnet_era_name(v->era));
}

/* Sweep the plugin variant @v isolated into @r; 0, 1 (it crashed or
 * timed out: its row says so, with the state it was in) or 2 (the
 * sweep's error, printed) */
static int sweep_isolated(const struct sweep_opts *o, const struct sweep_job *job,
			  const struct km_usbnet_variant *v, struct report *r)
{
	struct sweep_job j = *job;
	struct vresult *vr = report_variant(r, v->name);
	GByteArray *b = g_byte_array_new();
	const guint8 *p, *end;
	guint64 states;
	double secs[2];
	void *shared = MAP_FAILED;
	int err;

	j.v[0] = v;
	j.v[1] = NULL;
	j.where = NULL;
	/* the state the child runs, in a page it shares with us */
	shared = mmap(NULL, sizeof(*j.where), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		      -1, 0);
	if (shared != MAP_FAILED) {
		j.where = shared;
		j.where->begun = false;
	}
	if (km_tool_isolated((unsigned int)o->timeout, sweep_child, &j, b, &vr->crashed) < 0 ||
	    b->len < sizeof(err)) {
		gchar *why = vr->crashed, *st = j.where && j.where->begun ?
						 state_arg(j.where, j.rx) : NULL;

		vr->crashed = crash_text(why, v, st);
		vr->crashed_state = st;
		g_free(why);
		fprintf(stderr, PROG ": %s: %s\n", v->name, vr->crashed);
		if (j.where)
			munmap(shared, sizeof(*j.where));
		g_byte_array_free(b, TRUE);
		return 1;
	}
	if (j.where)
		munmap(shared, sizeof(*j.where));
	p = b->data;
	end = p + b->len;
	memcpy(&err, p, sizeof(err));
	p += sizeof(err);
	if (err) {
		fprintf(stderr, PROG ": %.*s (%d)\n", (int)(end - p), (const char *)p, err);
		g_byte_array_free(b, TRUE);
		return 2;
	}
	memcpy(&states, p, sizeof(states));
	memcpy(secs, p + sizeof(states), sizeof(secs));
	p += sizeof(states) + sizeof(secs);
	r->states += states;
	r->seconds += secs[0];
	r->cpu_seconds += secs[1];
	vr->states += states;
	while (p < end) {
		const char *rule = (const char *)p;
		guint64 count;
		struct km_sweep_state ex;
		struct km_sweep_rx_state rx;

		p += strlen(rule) + 1;
		memcpy(&count, p, sizeof(count));
		memcpy(&ex, p + sizeof(count), sizeof(ex));
		memcpy(&rx, p + sizeof(count) + sizeof(ex), sizeof(rx));
		p += sizeof(count) + sizeof(ex) + sizeof(rx);
		report_add(vr, rule, count, j.rx ? NULL : &ex, j.rx ? &rx : NULL);
	}
	g_byte_array_free(b, TRUE);
	return 0;
}

/* The sweep of @vs into @r (its rows in that order): the built-ins in one
 * run here, each plugin's variant in a child of its own. 0, 1 (a plugin's
 * variant crashed or timed out: its row says so) or 2 (an error, printed) */
static int sweep_variants(const struct sweep_opts *o, struct km_registry *reg,
			  struct sweep_job *j, const struct km_usbnet_variant *const *vs,
			  struct report *r)
{
	GPtrArray *builtins = g_ptr_array_new();
	int err, rc = 0;

	r->rx = j->rx;
	for (const struct km_usbnet_variant *const *v = vs; *v; v++) {
		report_variant(r, (*v)->name);
		if (builtin(reg, *v))
			g_ptr_array_add(builtins, (gpointer)*v);
	}
	g_ptr_array_add(builtins, NULL);
	err = builtins->len > 1 ?
	      sweep_here(j, (const struct km_usbnet_variant *const *)builtins->pdata, r) : 0;
	g_ptr_array_free(builtins, TRUE);
	if (err) {
		fprintf(stderr, PROG ": %s (%d)\n", km_last_error(), err);
		return 2;
	}
	for (const struct km_usbnet_variant *const *v = vs; *v && rc != 2; v++)
		if (!builtin(reg, *v)) {
			int vrc = sweep_isolated(o, j, *v, r);	/* once: MAX() is a macro */

			rc = MAX(rc, vrc);
		}
	return rc;
}

/* the report printed (--json or the table) and freed; the exit status:
 * @rc, or 1 for findings with --fail-on-findings */
static int sweep_print(const struct sweep_opts *o, struct report *r, int rc)
{
	report_sort(r);
	if (o->json)
		print_json(r);
	else
		print_table(r);
	if (o->fail_on_findings && report_findings(r))
		rc = MAX(rc, 1);
	report_fini(r);
	return rc;
}

/* A --replay of a plugin's variant in a child: the state's trace on our
 * stdout as it goes (line-buffered, so a crash keeps what came before),
 * then its findings (or error and message) back */
struct replay_job {
	const struct km_usbnet_variant *v;
	const struct km_sweep_state *tx;	/* or */
	const struct km_sweep_rx_state *rx;
};

static int replay_child(void *arg, GByteArray *out)
{
	const struct replay_job *j = arg;
	int fd = dup(STDOUT_FILENO), found;
	FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!fp)
		fp = stdout;
	else
		setvbuf(fp, NULL, _IOLBF, 0);
	found = j->rx ? km_sweep_rx_replay(j->v, j->rx, fp) : km_sweep_replay(j->v, j->tx, fp);
	if (fp != stdout)
		fclose(fp);
	g_byte_array_append(out, (const guint8 *)&found, sizeof(found));
	if (found < 0)
		g_byte_array_append(out, (const guint8 *)km_last_error(),
				    (guint)strlen(km_last_error()) + 1);
	return 0;
}

/* replay @j's state: here for a built-in, isolated for a plugin's variant;
 * its findings (>= 0), an error (< 0: km_last_error() says it), or, with
 * *@crashed set, the child's crash or timeout (printed) */
static int replay_run(const struct sweep_opts *o, struct km_registry *reg,
		      const struct replay_job *j, bool *crashed)
{
	GByteArray *b;
	gchar *why = NULL;
	int found;

	*crashed = false;
	if (builtin(reg, j->v))
		return j->rx ? km_sweep_rx_replay(j->v, j->rx, stdout)
			     : km_sweep_replay(j->v, j->tx, stdout);
	b = g_byte_array_new();
	if (km_tool_isolated((unsigned int)o->timeout, replay_child, (void *)j, b, &why) < 0 ||
	    b->len < sizeof(found)) {
		gchar *text = crash_text(why, j->v, o->replay);

		fprintf(stderr, PROG ": %s: %s\n", j->v->name, text);
		g_free(text);
		g_free(why);
		g_byte_array_free(b, TRUE);
		*crashed = true;
		return 0;
	}
	memcpy(&found, b->data, sizeof(found));
	if (found < 0)
		km_set_error("%.*s", (int)(b->len - sizeof(found)),
			     (const char *)b->data + sizeof(found));
	g_byte_array_free(b, TRUE);
	return found;
}

/* the end of a --replay: @pick freed; the state's findings (@found), or
 * its error (< 0; with @cmd, the STATE was bad: its @form is said) make
 * the exit status */
static int replay_exit(const struct sweep_opts *o, GPtrArray *pick, int found, const char *cmd,
		       const char *form, bool crashed)
{
	g_ptr_array_free(pick, TRUE);
	if (crashed)	/* printed: a failing run, never a signal */
		return 1;
	if (cmd) {
		fprintf(stderr, PROG ": %s --replay wants one --variant and STATE %s\n", cmd, form);
		return 2;
	}
	if (found < 0) {
		fprintf(stderr, PROG ": %s\n", km_last_error());
		return 2;
	}
	return o->fail_on_findings && found ? 1 : 0;
}

/* the endpoint of "SPEED/MAXPACKET", or the variant's first of full/64,
 * high/512, super/1024 when @s is NULL */
static bool parse_ep(const char *s, const struct km_usbnet_variant *v, enum km_usb_speed *speed,
		     unsigned int *mp)
{
	static const struct km_usb_ep_cfg eps[] = { { KM_USB_SPEED_FULL, 64 },
						    { KM_USB_SPEED_HIGH, 512 },
						    { KM_USB_SPEED_SUPER, 1024 } };

	*speed = KM_USB_SPEED_UNKNOWN;
	*mp = 0;
	if (s) {
		gchar **e = g_strsplit(s, "/", 2);

		*speed = speed_by_name(e[0]);
		*mp = e[1] && g_ascii_isdigit(e[1][0]) ? (unsigned int)strtoul(e[1], NULL, 10) : 0;
		g_strfreev(e);
		return *mp != 0;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(eps); i++)
		if (km_usbnet_variant_allows(v, eps[i].speed, eps[i].maxpacket)) {
			*speed = eps[i].speed;
			*mp = eps[i].maxpacket;
			return true;
		}
	return false;
}

/* a bad NAME field of a --replay STATE: the names it may be, said */
static void replay_unknown(const char *what, const char *s, const char *(*name)(unsigned int),
			   unsigned int n)
{
	const char *known[16];

	for (unsigned int i = 0; i < n && i < G_N_ELEMENTS(known); i++)
		known[i] = name(i);
	km_tool_unknown(PROG, what, s, known, MIN(n, G_N_ELEMENTS(known)));
}

static const char *sharing_name(unsigned int i)
{
	return km_sweep_sharing_name((enum km_sweep_sharing)i);
}

/* "LEN,HEADROOM,TAILROOM|default,SHARING[,SPEED/MAXPACKET]" */
static bool parse_tx_state(const char *s, const struct km_usbnet_variant *v,
			   struct km_sweep_state *st)
{
	gchar **f = g_strsplit(s, ",", -1);
	guint n = g_strv_length(f);
	bool ok = (n == 4 || n == 5) && g_ascii_isdigit(f[0][0]) && g_ascii_isdigit(f[1][0]) &&
		  (g_ascii_isdigit(f[2][0]) || !strcmp(f[2], "default"));
	int sh = ok ? sharing_by_name(f[3]) : -1;

	*st = (struct km_sweep_state){ 0 };
	if (ok && sh < 0)
		replay_unknown("SHARING", f[3], sharing_name, KM_SWEEP_SHARING_COUNT);
	ok = ok && sh >= 0 && parse_ep(n == 5 ? f[4] : NULL, v, &st->speed, &st->maxpacket);
	if (ok) {
		st->len = (unsigned int)strtoul(f[0], NULL, 10);
		st->headroom = (unsigned int)strtoul(f[1], NULL, 10);
		st->tailroom = strcmp(f[2], "default") ? (int)strtol(f[2], NULL, 10)
						       : KM_SWEEP_TAIL_DEFAULT;
		st->sharing = (enum km_sweep_sharing)sh;
	}
	g_strfreev(f);
	return ok;
}

/* "LEN,FRAMES,MUTATION,SPLIT[,SPEED/MAXPACKET]" (names as the report prints
 * them); the endpoint defaults to the variant's first of full/64, high/512,
 * super/1024 */
static bool parse_rx_state(const char *s, const struct km_usbnet_variant *v,
			   struct km_sweep_rx_state *st)
{
	gchar **f = g_strsplit(s, ",", -1);
	guint n = g_strv_length(f);
	bool ok = (n == 4 || n == 5) && g_ascii_isdigit(f[0][0]) && g_ascii_isdigit(f[1][0]);
	int mu = ok ? name_index(f[2], km_sweep_rx_mutation_name, KM_SWEEP_RX_MUTATION_COUNT) : -1;
	int sp = ok ? name_index(f[3], km_sweep_rx_split_name, KM_SWEEP_RX_SPLIT_COUNT) : -1;

	*st = (struct km_sweep_rx_state){ 0 };
	if (ok && mu < 0)
		replay_unknown("MUTATION", f[2], km_sweep_rx_mutation_name,
			       KM_SWEEP_RX_MUTATION_COUNT);
	if (ok && sp < 0)
		replay_unknown("SPLIT", f[3], km_sweep_rx_split_name, KM_SWEEP_RX_SPLIT_COUNT);
	ok = ok && mu >= 0 && sp >= 0 && parse_ep(n == 5 ? f[4] : NULL, v, &st->speed,
						  &st->maxpacket);
	if (ok) {
		st->len = (unsigned int)strtoul(f[0], NULL, 10);
		st->frames = (unsigned int)strtoul(f[1], NULL, 10);
		st->mutation = (unsigned int)mu;
		st->split = (unsigned int)sp;
	}
	g_strfreev(f);
	return ok;
}

/* --shard K/N into *@k, *@n (1/1 without it); false after saying why */
static bool shard_opt(const struct sweep_opts *o, unsigned int *k, unsigned int *n)
{
	*k = *n = 1;
	if (!o->shard || parse_shard(o->shard, k, n))
		return true;
	fprintf(stderr, PROG ": --shard \"%s\": want K/N, digits, 1 <= K <= N <= "
		G_STRINGIFY(SHARDS_MAX) "\n", o->shard);
	return false;
}

/* --replay STATE of the one variant in @pick (freed), tx or rx */
static int sweep_replay(const struct sweep_opts *o, struct km_registry *reg, bool rx,
			GPtrArray *pick)
{
	struct km_sweep_state tx;
	struct km_sweep_rx_state rxs;
	struct replay_job j = { .tx = rx ? NULL : &tx, .rx = rx ? &rxs : NULL };
	bool crashed;
	int found;

	if (pick->len != 1 || !(rx ? parse_rx_state(o->replay, g_ptr_array_index(pick, 0), &rxs)
				   : parse_tx_state(o->replay, g_ptr_array_index(pick, 0), &tx)))
		return replay_exit(o, pick, -1, rx ? "rx" : "asix",
				   rx ? "LEN,FRAMES,MUTATION,SPLIT[,SPEED/MAXPACKET] (e.g. "
					"60,2,len+1,whole,high/512; the report's examples are "
					"in this form; without SPEED/MAXPACKET the variant's "
					"first of full/64, high/512, super/1024)"
				      : "LEN,HEADROOM,TAILROOM|default,SHARING[,SPEED/MAXPACKET] "
					"(e.g. 66,0,4,tcp_clone,full/64; the report's examples "
					"are in this form; without SPEED/MAXPACKET the variant's "
					"first of full/64, high/512, super/1024)", false);
	j.v = g_ptr_array_index(pick, 0);
	found = replay_run(o, reg, &j, &crashed);
	return replay_exit(o, pick, found, NULL, NULL, crashed);
}

/* A sweep command once its variants are picked (@pick, freed here; none:
 * @all): --replay of one state, or shard @k of @n of the sweep of them,
 * printed. The exit status. */
static int sweep_picked(const struct sweep_opts *o, struct km_registry *reg,
			struct sweep_job *j, GPtrArray *pick,
			const struct km_usbnet_variant *const *all, unsigned int k, unsigned int n)
{
	const struct km_usbnet_variant *const *vs;
	struct report r;
	int rc;

	if (o->replay)
		return sweep_replay(o, reg, j->rx, pick);
	if (pick->len)
		g_ptr_array_add(pick, NULL);
	vs = pick->len ? (const struct km_usbnet_variant *const *)pick->pdata : all;
	report_init(&r);
	r.space.k = k;
	r.space.n = n;
	r.space.quick = o->quick;
	for (const struct km_usbnet_variant *const *v = vs; *v; v++)
		g_ptr_array_add(r.space.variants, g_strdup((*v)->name));
	if (j->rx) {
		j->rx_cfg.variants = vs;
		j->rx_cfg.shard = k - 1;
		j->rx_cfg.shards = n;
		if (o->progress && isatty(STDERR_FILENO))
			j->rx_cfg.progress = progress;
		r.space.states = km_sweep_rx_space_size(&j->rx_cfg);
	} else {
		j->cfg.variants = vs;
		j->cfg.shard = k - 1;
		j->cfg.shards = n;
		if (o->progress && isatty(STDERR_FILENO))
			j->cfg.progress = progress;
		r.space.states = km_sweep_space_size(&j->cfg);
		for (int sh = 0; sh < KM_SWEEP_SHARING_COUNT; sh++)
			if (!j->cfg.sharings || (j->cfg.sharings & (1u << sh)))
				g_ptr_array_add(r.space.sharings, g_strdup(km_sweep_sharing_name(
						(enum km_sweep_sharing)sh)));
	}
	rc = sweep_variants(o, reg, j, vs, &r);
	g_ptr_array_free(pick, TRUE);
	if (rc == 2) {
		report_fini(&r);
		return 2;
	}
	return sweep_print(o, &r, rc);
}

static int sweep_asix(const struct sweep_opts *o, struct km_registry *reg)
{
	gchar **names = NULL;
	const struct km_usbnet_variant *const *all = km_registry_usbnet(reg);
	GPtrArray *pick = g_ptr_array_new(), *tx;
	struct sweep_job j = { .cfg = { .quick = o->quick } };
	GString *skipped;
	unsigned int k = 1, n = 1;
	int rc = 0;

	if (!shard_opt(o, &k, &n)) {
		g_ptr_array_free(pick, TRUE);
		return 2;
	}
	if (km_tool_split_names(PROG, "variant", o->variants, &names))
		rc = 2;
	for (gchar **name = names; name && *name && !rc; name++) {
		const struct km_usbnet_variant *uv = km_registry_find_usbnet(reg, *name);

		if (!uv) {
			km_tool_unknown_variant(PROG, reg, true, *name);
			rc = 2;
		} else if (!km_usbnet_variant_has_tx_dev(uv)) {
			fprintf(stderr, PROG ": asix: variant '%s' has a receive side only (no "
				"device model parses its bulk-out); sweep it with `" PROG " rx "
				"--variant %s`\n", uv->name, uv->name);
			rc = 2;
		} else {
			g_ptr_array_add(pick, (gpointer)uv);
		}
	}
	/* cleared: with an unknown variant the sharing loop below must not
	 * walk, then free again, the freed list (a use after free, then a
	 * double free: SIGSEGV) */
	g_clear_pointer(&names, g_strfreev);
	if (!rc && km_tool_split_names(PROG, "sharing", o->sharings, &names))
		rc = 2;
	for (gchar **name = names; name && *name && !rc; name++) {
		int sh = sharing_by_name(*name);

		if (sh < 0) {
			const char *known[KM_SWEEP_SHARING_COUNT];

			for (int s = 0; s < KM_SWEEP_SHARING_COUNT; s++)
				known[s] = km_sweep_sharing_name((enum km_sweep_sharing)s);
			km_tool_unknown(PROG, "sharing", *name, known, KM_SWEEP_SHARING_COUNT);
			rc = 2;
		} else {
			j.cfg.sharings |= 1u << sh;
		}
	}
	g_strfreev(names);
	if (rc) {
		g_ptr_array_free(pick, TRUE);
		return rc;
	}
	/* by default every variant with a device model; a receive-only one
	 * (a plugin's) is left out with a notice, not a failed run */
	tx = g_ptr_array_new();
	skipped = g_string_new(NULL);
	for (const struct km_usbnet_variant *const *v = all; *v; v++)
		if (km_usbnet_variant_has_tx_dev(*v))
			g_ptr_array_add(tx, (gpointer)*v);
		else
			g_string_append_printf(skipped, ", %s", (*v)->name);
	g_ptr_array_add(tx, NULL);
	if (skipped->len && !pick->len)
		fprintf(stderr, PROG ": asix skips %s: a receive side only (`" PROG " rx`)\n",
			skipped->str + 2);
	g_string_free(skipped, TRUE);
	rc = sweep_picked(o, reg, &j, pick, (const struct km_usbnet_variant *const *)tx->pdata,
			  k, n);
	g_ptr_array_free(tx, TRUE);
	return rc;
}

/* rx's default variants, NULL-terminated: the library's receive variants,
 * then each plugin variant with a receive side (a framing and an rx_fixup) */
static GPtrArray *rx_default_variants(struct km_registry *reg)
{
	GPtrArray *all = g_ptr_array_new();

	for (const struct km_usbnet_variant *const *v = km_usbnet_rx_variants(); *v; v++)
		g_ptr_array_add(all, (gpointer)*v);
	for (const struct km_usbnet_variant *const *v = km_registry_usbnet(reg); *v; v++)
		if (!builtin(reg, *v) && km_usbnet_variant_has(*v, framing) && (*v)->framing &&
		    (*v)->info && (*v)->info->rx_fixup)
			g_ptr_array_add(all, (gpointer)*v);
	g_ptr_array_add(all, NULL);
	return all;
}

static int sweep_rx(const struct sweep_opts *o, struct km_registry *reg)
{
	gchar **names = NULL;
	GPtrArray *pick = g_ptr_array_new(), *all;
	struct sweep_job j = { .rx = true,
			       .rx_cfg = { .size = sizeof(j.rx_cfg), .quick = o->quick } };
	unsigned int k = 1, n = 1;
	int rc = 0;

	/* refused, not ignored: a run that seems to honour it would not */
	if (o->sharings) {
		fprintf(stderr, PROG ": rx: --sharing is an asix option (an rx state is a "
			"device's transfer, not an skb a driver shares)\n");
		g_ptr_array_free(pick, TRUE);
		return 2;
	}
	if (!shard_opt(o, &k, &n)) {
		g_ptr_array_free(pick, TRUE);
		return 2;
	}
	all = rx_default_variants(reg);
	if (km_tool_split_names(PROG, "variant", o->variants, &names))
		rc = 2;
	for (gchar **name = names; name && *name && !rc; name++) {
		const struct km_usbnet_variant *uv = km_registry_find_usbnet(reg, *name);

		if (!uv)
			uv = km_usbnet_find_any(*name);
		if (!uv || !km_usbnet_variant_has(uv, framing) || !uv->framing) {
			fprintf(stderr, PROG ": rx: no variant '%s' with a receive side; known:", *name);
			for (guint i = 0; i + 1 < all->len; i++)
				fprintf(stderr, " %s",
					((const struct km_usbnet_variant *)all->pdata[i])->name);
			fprintf(stderr, "\n");
			rc = 2;
		} else {
			g_ptr_array_add(pick, (gpointer)uv);
		}
	}
	g_strfreev(names);
	if (rc) {
		g_ptr_array_free(pick, TRUE);
		g_ptr_array_free(all, TRUE);
		return rc;
	}
	rc = sweep_picked(o, reg, &j, pick, (const struct km_usbnet_variant *const *)all->pdata, k,
			  n);
	g_ptr_array_free(all, TRUE);
	return rc;
}

/* every shard 1..N once, and their states the space's. The missing ones
 * are named up to MERGE_MISSING_SHOWN, then counted. */
#define MERGE_MISSING_SHOWN 5
static int merge_complete(const struct report *r, const GPtrArray *seen)
{
	GString *missing = g_string_new(NULL);
	guint nmissing = 0;
	int rc = 0;
	bool crashed = false;	/* a variant that did not run its states */

	for (guint i = 0; i < r->variants->len; i++)
		if (((const struct vresult *)g_ptr_array_index(r->variants, i))->crashed)
			crashed = true;

	for (guint k = 0; k < seen->len; k++)
		if (!g_ptr_array_index(seen, k) && ++nmissing <= MERGE_MISSING_SHOWN)
			g_string_append_printf(missing, "%s%u/%u", missing->len ? ", " : "", k + 1,
					       seen->len);
	if (nmissing > MERGE_MISSING_SHOWN)
		g_string_append_printf(missing, " and %u more (%u of %u missing)",
				       nmissing - MERGE_MISSING_SHOWN, nmissing, seen->len);
	if (nmissing) {
		fprintf(stderr, PROG ": merge: missing shard%s %s\n", nmissing > 1 ? "s" : "",
			missing->str);
		rc = 2;
	} else if (crashed ? r->states > r->space.states : r->states != r->space.states) {
		fprintf(stderr, PROG ": merge: the shards hold %" G_GUINT64_FORMAT " states, the "
			"space %" G_GUINT64_FORMAT "\n", r->states, r->space.states);
		rc = 2;
	} else if (crashed) {	/* its row says so; a failing merge, as the run was */
		for (guint i = 0; i < r->variants->len; i++) {
			const struct vresult *v = g_ptr_array_index(r->variants, i);

			if (v->crashed)
				fprintf(stderr, PROG ": merge: %s: %s\n", v->name, v->crashed);
		}
		rc = 1;
	}
	g_string_free(missing, TRUE);
	return rc;
}

static int sweep_merge(const struct sweep_opts *o, int argc, char **argv)
{
	GPtrArray *seen = g_ptr_array_new();	/* by shard: the file that had it */
	struct report r;
	int rc = 0;

	if (argc < 3) {
		fprintf(stderr, PROG ": merge: no files (kmodel-sweep merge [--json] FILE.json...)\n");
		g_ptr_array_free(seen, TRUE);
		return 2;
	}
	report_init(&r);
	for (int i = 2; i < argc && !rc; i++)
		if (merge_file(&r, argv[i], seen))
			rc = 2;
	if (!rc)
		rc = merge_complete(&r, seen);
	if (rc < 2) {
		r.space.k = r.space.n = 1;	/* the whole space */
		report_sort(&r);
		if (o->json)
			print_json(&r);
		else
			print_table(&r);
		if (o->fail_on_findings && report_findings(&r))
			rc = 1;
	}
	report_fini(&r);
	g_ptr_array_free(seen, TRUE);
	return rc;
}

int main(int argc, char **argv)
{
	struct sweep_opts o = { .timeout = KM_TOOL_TIMEOUT_DEFAULT };
	gboolean version = FALSE;
	GOptionEntry entries[] = {
		{ "quick", 'q', 0, G_OPTION_ARG_NONE, &o.quick,
		  "The reduced space: asix len 0..2 x maxpacket + 8, head- and tailroom 0..8; "
		  "rx len 14..20, 58..66, maxpacket -4..+4, 1510..1518 (and the fill rows)",
		  NULL },
		{ "shard", 0, 0, G_OPTION_ARG_STRING, &o.shard,
		  "Run the K-th of N disjoint parts of the space (1 <= K <= N <= "
		  G_STRINGIFY(SHARDS_MAX) ")", "K/N" },
		KM_TOOL_VARIANT_ENTRY(&o.variants, "usbnet variants to sweep"),
		{ "sharing", 's', 0, G_OPTION_ARG_STRING_ARRAY, &o.sharings,
		  "Only these sharings: private, tcp_clone, header_cloned, shared (repeatable, "
		  "or a comma list; default: all)", "NAME" },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &o.json, "Write JSON to stdout", NULL },
		{ "replay", 0, 0, G_OPTION_ARG_STRING, &o.replay,
		  "Run one state of one --variant and print what happened and its reports; "
		  "asix: LEN,HEADROOM,TAILROOM|default,SHARING[,SPEED/MAXPACKET]; rx: "
		  "LEN,FRAMES,MUTATION,SPLIT[,SPEED/MAXPACKET] (the report prints each "
		  "example as --replay STATE; without SPEED/MAXPACKET: the variant's first "
		  "of full/64, high/512, super/1024)",
		  "STATE" },
		{ "fail-on-findings", 0, 0, G_OPTION_ARG_NONE, &o.fail_on_findings,
		  "Exit 1 when there is a finding (for CI)", NULL },
		{ "progress", 0, 0, G_OPTION_ARG_NONE, &o.progress,
		  "Show progress on stderr when it is a terminal", NULL },
		KM_TOOL_LOAD_ENTRY(&o.load),
		KM_TOOL_TIMEOUT_ENTRY(&o.timeout),
		KM_TOOL_VERSION_ENTRY(&version),
		{ 0 },
	};
	GOptionContext *ctx;
	GError *err = NULL;
	struct km_registry *reg = NULL;
	int rc;

	km_tool_init();
	ctx = g_option_context_new("asix | rx | merge FILE.json... - sweep usbnet tx_fixups and "
				   "rx_fixups");
	g_option_context_set_summary(ctx,
		"asix: hand every usbnet variant every sk_buff of a space -- len 0..1518,\n"
		"headroom 0..64, tailroom 0..64 and alloc_skb()'s rounded default; private, a TCP\n"
		"clone whose original released its header (dataref 0x10002; len from 66, the\n"
		"headers), header-cloned (dataref 2), shared (users 2); each bulk endpoint\n"
		"(full/8, full/64, high/512, super/1024) the variant allows -- and run its\n"
		"tx_fixup, usbnet's URB rules of its era, bulk-out segmentation and its device\n"
		"model. Findings by rule (each checker report code, zlp_stall, frame_mismatch,\n"
		"other_holder_corrupted, leak) with the count of states and the smallest\n"
		"example state. The checker sees writes through calls (accessors,\n"
		"put_unaligned_*(), the layer's memcpy/memmove/memset); plain C stores\n"
		"such as `skb->data[0] = len` into bytes of a cloned or shared buffer the\n"
		"skb may not write are found by comparing them around the call:\n"
		"skb_store_shared. --json also records the shard (K/N) and the space (--quick,\n"
		"variants, sharings, its states).\n"
		"\n"
		"rx: hand every usbnet variant with a receive side every bulk-in stream of a\n"
		"space -- 1..3 back-to-back frames of len 14..1518 framed by its device, each\n"
		"valid or one of its malformed neighbours (len+1, len-1, len+8, copy_disagrees,\n"
		"truncated; the AX88179's offset_past_end), whole or split across transfers\n"
		"(split_header, split_frame), and runs of 1518-byte frames filling rx_urb_size\n"
		"to -1, 0, +1 bytes (urb_fill-1, urb_fill, urb_fill+1), on each endpoint of\n"
		"full/64, high/512, super/1024 it allows -- through usbnet's receive path of\n"
		"its era and its rx_fixup. Findings: each checker report\n"
		"(rx_read_past_urb, rx_no_progress, skb_over_panic, ...), frame_mismatch,\n"
		"frame_lost (a valid stream), leak. --quick: len 14..20, 58..66, maxpacket +-4,\n"
		"1510..1518. --replay STATE with one --variant prints one state's transfers,\n"
		"frames, counters and reports (docs/receive.md).\n"
		"\n"
		"merge: combine the --json reports of the shards of one sweep (states and\n"
		"seconds add up, so merged seconds are core-seconds; counts add, the smallest\n"
		"example stays). It refuses a shard given twice, a missing one, one of\n"
		"another space (N, --quick, variants or sharings differ), and a report that\n"
		"is empty or does not add up (a variant or rule twice, a count past its\n"
		"variant's states, variants' states not the report's), exit status 2. A\n"
		"plugin's variant that crashed or timed out in a shard keeps its row, with\n"
		"each shard's cause and state (\"..., in shard 3/4\"), exit status 1; its\n"
		"JSON \"crashed_state\" is the one the sweep runs first (by endpoint, then\n"
		"as the sweep's loops), whatever the order of the files.");
	g_option_context_set_description(ctx,
		"Shard over processes, e.g. with GNU parallel on one host: run\n"
		"`parallel kmodel-sweep asix --json --shard {}/4 '>' shard-{}.json ::: 1 2 3 4`,\n"
		"then `kmodel-sweep merge --json shard-*.json > sweep.json`.\n"
		"\n"
		"A plugin's variant is swept (or replayed) in a forked child: one that\n"
		"crashes or runs past --timeout is named with the cause, the state it\n"
		"was in, as --replay takes it, and the usbnet era (\"crashed: killed by\n"
		"signal 11 (Segmentation fault), in the state 20,3,4,private,full/8\n"
		"(usbnet v3.5)\"; JSON \"crashed\", \"crashed_state\"); the other\n"
		"variants' rows still print, exit status 1.\n"
		"\n"
		"Exit status: 0 the sweep ran (findings are its output), 1 a plugin's\n"
		"variant crashed or timed out (or, with --fail-on-findings, there is a\n"
		"finding), 2 bad usage or error.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, PROG ": %s\n", err->message);
		rc = 2;
	} else if (version) {
		km_tool_print_version(PROG);
		rc = 0;
	} else if (o.timeout < 0) {
		fprintf(stderr, PROG ": --timeout %d: want 0 or more\n", o.timeout);
		rc = 2;
	} else if (argc >= 2 && !strcmp(argv[1], "merge")) {
		rc = sweep_merge(&o, argc, argv);
	} else if (argc == 2 && !strcmp(argv[1], "rx")) {
		if (!(reg = km_tool_registry(PROG, o.load, o.timeout)))
			rc = 2;
		else
			rc = sweep_rx(&o, reg);
	} else if (argc != 2 || strcmp(argv[1], "asix") != 0) {
		/* a wrong command is named, not only the usage */
		if (argc < 2)
			fprintf(stderr, PROG ": no command; commands: asix, rx, merge\n");
		else if (strcmp(argv[1], "asix"))
			fprintf(stderr, PROG ": unknown command '%s'; commands: asix, rx, merge\n",
				argv[1]);
		else
			fprintf(stderr, PROG ": asix: unexpected argument '%s'\n", argv[2]);
		fprintf(stderr, PROG ": usage: kmodel-sweep asix [--load PATH.so] [--quick] "
				"[--shard K/N] [--variant NAME] [--sharing NAME] [--json] [--progress] | "
				"kmodel-sweep merge [--json] FILE.json... (see --help)\n");
		rc = 2;
	} else if (!(reg = km_tool_registry(PROG, o.load, o.timeout))) {
		rc = 2;
	} else {
		rc = sweep_asix(&o, reg);
	}
	km_registry_free(reg);
	g_strfreev(o.load);
	g_strfreev(o.variants);
	g_strfreev(o.sharings);
	g_free(o.shard);
	g_free(o.replay);
	g_option_context_free(ctx);
	g_clear_error(&err);
	return rc;
}
