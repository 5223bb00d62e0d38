/* nccl_mpi.c - one process per GPU, started by MPI: rank 0 makes NCCL's
   unique id and MPI_Bcast sends it to the others; each rank joins the
   communicator on its own GPU (its node-local rank's), and an all_reduce
   of every rank's array is checked against the sum computed on the host.
   The same with CuPy and mpi4py:

       id = nccl.get_unique_id() if rank == 0 else None
       id = comm.bcast(id, root=0)
       cupy.cuda.Device(local_rank).use()
       nc = nccl.NcclCommunicator(size, id, rank)
       nc.allReduce(x.data.ptr, y.data.ptr, x.size, nccl.NCCL_FLOAT64, nccl.NCCL_SUM, stream)

   Build and run (Open MPI; the Makefile builds it where mpicc is found):
       make && mpirun -np 2 -x NCCL_NVLS_ENABLE=0 ./build/examples/mpi/nccl_mpi [elements]
   Every rank prints its check; rank 0 the summary. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#define GPUARR_IMPLEMENTATION
#include "gpuarr.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Rank r's element i: (i * 7 + r * 13) % 64 / 8, exact in float64, and so
   is the sum over the ranks. */
static double value(int64_t i, int r) { return (double)((i * 7 + (int64_t)r * 13) % 64) / 8; }

/* The all_reduce of this rank's n elements on `comm`, checked: the number
   of wrong elements, or -1 (the error printed). */
static int64_t run(ga_nccl_comm *comm, int rank, int size, int64_t n)
{
    double *x = malloc((size_t)n * sizeof *x);
    if (!x) return -1;
    for (int64_t i = 0; i < n; i++) x[i] = value(i, rank);
    ga_array *dx = ga_from_host(x, 1, &n, GA_FLOAT64), *dy = ga_empty(1, &n, GA_FLOAT64);
    ga_status st = ga_nccl_all_reduce(comm, dx, dy, GA_NCCL_SUM);
    if (st == GA_OK) st = ga_nccl_comm_wait(comm, 120); /* a rank that died: an error, not a hang */
    if (st == GA_OK) st = ga_to_host(dy, x, (size_t)n * sizeof *x);
    int64_t wrong = st == GA_OK ? 0 : -1;
    for (int64_t i = 0; st == GA_OK && i < n; i++) {
        double want = 0;
        for (int r = 0; r < size; r++) want += value(i, r);
        wrong += x[i] != want;
    }
    if (st != GA_OK) fprintf(stderr, "nccl_mpi: rank %d: %s\n", rank, ga_last_error_message());
    ga_release(dx), ga_release(dy);
    free(x);
    return wrong;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int64_t n = argc > 1 ? atoll(argv[1]) : (int64_t)1 << 24;
    setenv("NCCL_NVLS_ENABLE", "0", 0); /* before any NCCL call */
    /* each rank on the GPU of its rank among the node's ranks */
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int local = 0;
    MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);
    int ok = ga_init() == GA_OK, all_ok = 0;
    if (!ok) fprintf(stderr, "nccl_mpi: cannot use the GPU: %s\n", ga_last_error_message());
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all_ok) {
        MPI_Finalize();
        return 1;
    }
    const int ndev = ga_device_count(), device = local % ndev;
    ga_device_set(device);
    ga_nccl_unique_id id;
    int made = rank != 0 || ga_nccl_get_unique_id(&id) == GA_OK;
    if (!made) fprintf(stderr, "nccl_mpi: %s\n", ga_last_error_message());
    MPI_Bcast(&made, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!made) {
        MPI_Finalize();
        return 1;
    }
    MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    ga_nccl_comm *comm = ga_nccl_comm_init_rank(size, id, rank);
    int64_t wrong = comm ? run(comm, rank, size, n) : -1;
    if (!comm) fprintf(stderr, "nccl_mpi: rank %d: %s\n", rank, ga_last_error_message());
    printf("rank %d of %d on GPU %d: %lld of %lld elements wrong\n", rank, size, device, (long long)wrong,
           (long long)n);
    long long bad = wrong != 0, all_bad = 0;
    MPI_Reduce(&bad, &all_bad, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && all_bad) printf("all_reduce over %d ranks: %lld ranks wrong\n", size, all_bad);
    if (rank == 0 && !all_bad) printf("all_reduce over %d ranks matches the host\n", size);
    ga_nccl_comm_destroy(comm);
    MPI_Finalize();
    return all_bad ? 1 : 0;
}
