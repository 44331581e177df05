/*
 * The unit resets closed (issue: firmware that never opens it must leave
 * S-mode nothing to aim): every channel's limits read 0 at reset, and a
 * submission on a channel nobody opened is refused with ERR_DENIED, by list
 * and by SUBMIT_ONE, with ERROR and CTR_ERRORS telling so and nothing
 * flushed. Once the channel is opened (the runtime's tlbsd_open, as
 * firmware does), the same requests complete. The runtime is asked not to
 * open the channels at start (tlbsd_stay_closed).
 */
#include "runtime.h"
#include "shootdown.h"

const int tlbsd_stay_closed = 1;

static uint64_t list[2] __attribute__((aligned(64)));

int main(unsigned long hartid)
{
	if (hartid != 0)
		return 0;
	unsigned channels = TLBSD_INFO_CHANNELS(*tlbsd_global(TLBSD_INFO));
	CHECK(channels >= num_harts());
	for (unsigned h = 0; h < channels; h++) {
		CHECK(*tlbsd_global(TLBSD_LIMIT(h) + TLBSD_LIMIT_LIST_BASE) == 0);
		CHECK(*tlbsd_global(TLBSD_LIMIT(h) + TLBSD_LIMIT_LIST_LIMIT) == 0);
		CHECK(*tlbsd_global(TLBSD_LIMIT(h) + TLBSD_LIMIT_ALLOWED) == 0);
	}
	uint64_t entry = TLBSD_ENTRY(TLBSD_KIND_ALL, TLBSD_SIZE_4K, 1, 0, 0);
	list[0] = entry;
	uint64_t errors = *tlbsd_global(TLBSD_CTR_ERRORS), requests = *tlbsd_global(TLBSD_CTR_REQUESTS);
	long by_list = tlbsd_post(0, 1, list, 1), by_entry = tlbsd_post_one(0, 1, entry);
	uint64_t error = *tlbsd_chan(0, TLBSD_CH_ERROR);
	printf("closed: SUBMIT %ld, SUBMIT_ONE %ld, ERROR code %lu\n", by_list, by_entry,
	       (unsigned long)TLBSD_ERROR_CODE(error));
	CHECK(by_list == -TLBSD_ERR_DENIED);
	CHECK(by_entry == -TLBSD_ERR_DENIED);
	CHECK(TLBSD_ERROR_CODE(error) == TLBSD_ERR_DENIED);
	CHECK(*tlbsd_global(TLBSD_CTR_ERRORS) == errors + 2);
	CHECK(*tlbsd_global(TLBSD_CTR_REQUESTS) == requests);
	CHECK(*tlbsd_chan(0, TLBSD_CH_STATUS) & TLBSD_STATUS_IDLE);
	*tlbsd_chan(0, TLBSD_CH_ERROR) = 0;

	tlbsd_open(0);
	CHECK(tlbsd_flush(0, 1, list, 1) == 0);
	CHECK(tlbsd_flush_one(0, 1, entry) == 0);
	CHECK(*tlbsd_global(TLBSD_CTR_REQUESTS) == requests + 2);
	printf("PASS\n");
	return 0;
}
