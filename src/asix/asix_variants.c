// SPDX-License-Identifier: GPL-2.0
/* The asix variants: tables over the ported files. */
#include "asix_internal.h"
#include <kmodel/asix.h>
#include <string.h>

const struct km_asix_variant km_asix_before = {
	.name = "before",
	.summary = "v3.5: copy every cloned skb (!skb_cloned rule), no needed_headroom",
	.source = "drivers/net/usb/asix.c asix_tx_fixup(), ax88772_bind(), v3.5",
	.info = &km_asix_v35_ax88772_info,
};

const struct km_asix_variant km_asix_after = {
	.name = "after",
	.summary = "2012 patch: skb_header_cloned for the header, skb_cloned only with a pad; "
		   "needed_headroom/tailroom 4",
	.source = "drivers/net/usb/asix.c asix_tx_fixup(), ax88772_bind(), "
		  "\"asix: avoid copies in tx path\" (v3.6)",
	.info = &km_asix_v36_ax88772_info,
};

static const struct km_asix_variant *const variants[] = { &km_asix_before, &km_asix_after, NULL };

const struct km_asix_variant *const *km_asix_variants(void)
{
	return variants;
}

const struct km_asix_variant *km_asix_find(const char *name)
{
	for (size_t i = 0; name && variants[i]; i++)
		if (!strcmp(variants[i]->name, name))
			return variants[i];
	return NULL;
}
