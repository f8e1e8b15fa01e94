// A QEMU TCG plugin that counts the guest instructions each function executes, and how many of
// them are Advanced SIMD (NEON) vector instructions, for `make bench-arm64-count`: the arm64
// firmware's work per frame in instructions, which no timer on this x86 machine can give.
//
// Written by hand because Debian 12 ships no qemu-plugin.h: the declarations below are the part
// of QEMU 7.2's plugin API (version 1) this file calls. Output at exit, one line per function:
//   instructions <TAB> vector instructions <TAB> symbol
// into the file named by the plugin argument out=PATH.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t index);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
const char *qemu_plugin_insn_symbol(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

// One per function seen; translation blocks point at theirs. Never freed: they live as long as
// the process, and the exit callback reads them last.
struct function_count {
    const char *symbol;
    uint64_t instructions;
    uint64_t vector;
    struct function_count *next;
};

// What one translation block adds each time it runs.
struct block_count {
    struct function_count *function;
    uint64_t instructions;
    uint64_t vector;
};

static struct function_count *functions;
static char output_path[4096];

// AArch64 encodings: Advanced SIMD vector data processing (op0 0xx0, bits 28:25 0111), SIMD
// structure loads and stores (LD1..LD4, ST1..ST4), and 128-bit (Q register) loads and stores.
// Scalar floating point in the same registers is not counted, as in report.txt.
static int is_vector(uint32_t insn) {
    if ((insn & 0x9E000000u) == 0x0E000000u) return 1;
    if ((insn & 0xBE000000u) == 0x0C000000u) return 1;
    int simd_register = (insn >> 26) & 1;
    if (!simd_register) return 0;
    if ((insn & 0x3A000000u) == 0x28000000u) return (insn >> 30) == 2;  // LDP/STP: opc 10 is Q
    if ((insn & 0x3B000000u) == 0x38000000u || (insn & 0x3B000000u) == 0x39000000u)
        return (insn >> 30) == 0 && ((insn >> 23) & 1);  // LDR/STR: size 00, opc 1x is Q
    if ((insn & 0x3B000000u) == 0x18000000u) return (insn >> 30) == 2;  // LDR literal Q
    return 0;
}

static struct function_count *function_named(const char *symbol) {
    for (struct function_count *f = functions; f; f = f->next)
        if (strcmp(f->symbol, symbol) == 0) return f;
    struct function_count *f = calloc(1, sizeof *f);
    f->symbol = strdup(symbol);
    f->next = functions;
    functions = f;
    return f;
}

static void block_ran(unsigned int vcpu, void *userdata) {
    (void)vcpu;
    struct block_count *block = userdata;
    // Worker threads are vCPUs of their own and run blocks at the same time.
    __atomic_fetch_add(&block->function->instructions, block->instructions, __ATOMIC_RELAXED);
    __atomic_fetch_add(&block->function->vector, block->vector, __ATOMIC_RELAXED);
}

// Translation is serialised by QEMU in user mode (one lock over the code generator), so the
// function list needs no lock of its own.
static void block_translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    size_t count = qemu_plugin_tb_n_insns(tb);
    if (count == 0) return;
    const char *symbol = qemu_plugin_insn_symbol(qemu_plugin_tb_get_insn(tb, 0));
    struct block_count *block = calloc(1, sizeof *block);
    block->function = function_named(symbol ? symbol : "?");
    block->instructions = count;
    for (size_t i = 0; i < count; i++) {
        uint32_t word;
        memcpy(&word, qemu_plugin_insn_data(qemu_plugin_tb_get_insn(tb, i)), sizeof word);
        block->vector += (uint64_t)is_vector(word);
    }
    qemu_plugin_register_vcpu_tb_exec_cb(tb, block_ran, QEMU_PLUGIN_CB_NO_REGS, block);
}

static void finished(qemu_plugin_id_t id, void *userdata) {
    (void)id;
    (void)userdata;
    FILE *out = fopen(output_path, "w");
    if (!out) {
        fprintf(stderr, "qemu-insn-count: cannot write %s\n", output_path);
        return;
    }
    for (struct function_count *f = functions; f; f = f->next)
        if (f->instructions) fprintf(out, "%llu\t%llu\t%s\n", (unsigned long long)f->instructions,
                                     (unsigned long long)f->vector, f->symbol);
    fclose(out);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
    (void)info;
    for (int i = 0; i < argc; i++)
        if (strncmp(argv[i], "out=", 4) == 0) snprintf(output_path, sizeof output_path, "%s", argv[i] + 4);
    if (!output_path[0]) {
        fprintf(stderr, "qemu-insn-count: needs the argument out=PATH\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, block_translated);
    qemu_plugin_register_atexit_cb(id, finished, NULL);
    return 0;
}
