/* verbs_probe.c - does this machine have an RDMA device?  (ibv_devices
 * without needing ibverbs-utils.)  Prints the devices and exits 0, or
 * prints why not and exits 1.  Used by tests/verbs_env.sh to skip the
 * verbs multi-node tests where they cannot run. */
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    int n = 0;
    struct ibv_device **devs = ibv_get_device_list(&n);
    if (!devs) {
        printf("no RDMA device: ibv_get_device_list failed: %s\n", strerror(errno));
        return 1;
    }
    if (n == 0)
        printf("no RDMA device: ibv_get_device_list (as ibv_devices) lists none\n");
    for (int i = 0; i < n; i++)
        printf("RDMA device %s\n", ibv_get_device_name(devs[i]));
    ibv_free_device_list(devs);
    return n > 0 ? 0 : 1;
}
