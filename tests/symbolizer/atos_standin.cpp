// atos_standin.cpp — a stand-in for Apple's atos(1), which cannot run here, for testing
// --backend atos. It takes atos's command line (the subset the backend and people use) and
// prints atos's output format, answering from LLVM's symbolizer:
//
//   atos -o <binary|dSYM> [-arch <arch>] [-l <load address> | -s <slide>] [-i] [-fullPath]
//        [-d <delimiter>] [-f <address file>] [<address> ...]
//
//   function (in Binary) (file.c:12)      debug info (file name only, unless -fullPath)
//   function (in Binary) + 16             symbol table only (decimal offset into the symbol)
//   0x4000 (in Binary)                    nothing known
//
// Names are demangled, as atos prints them. With -i each address prints its inlined frames
// innermost first, one line each (joined by -d's delimiter if given), then an empty line.
// Without addresses or -f it reads stdin line by line and answers each at once (interactive
// mode). docs/symbolizer.md says what this stands in for and where it differs.
#include <llvm/DebugInfo/Symbolize/Symbolize.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "object_info.h"

namespace {

struct Options {
    std::string image, arch, addr_file, delimiter = "\n";
    std::optional<uint64_t> load, slide;
    bool inlined = false, full_path = false;
    std::vector<std::string> addresses;
};

[[noreturn]] void usage(const std::string &why) {
    fprintf(stderr, "atos: %s\nusage: atos -o <binary|dSYM> [-arch arch] [-l load-address | -s slide] [-i] [-fullPath] "
                    "[-d delimiter] [-f address-file] [address ...]\n", why.c_str());
    exit(1);
}

uint64_t parse_addr(const std::string &s, bool always_hex) {
    char *end = nullptr;
    bool hex = always_hex || s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0;
    uint64_t v = strtoull(s.c_str(), &end, hex ? 16 : 10);
    if (s.empty() || *end) usage("invalid address '" + s + "'");
    return v;
}

Options parse(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage(a + " needs a value");
            return argv[++i];
        };
        if (a == "-o") o.image = value();
        else if (a == "-arch") o.arch = value();
        else if (a == "-l") o.load = parse_addr(value(), true);  // atos: "always assumed to be in hex"
        else if (a == "-s") o.slide = parse_addr(value(), true);
        else if (a == "-i" || a == "--inlineFrames") o.inlined = true;
        else if (a == "-fullPath") o.full_path = true;
        else if (a == "-d") o.delimiter = value();
        else if (a == "-f") o.addr_file = value();
        else if (!a.empty() && a[0] == '-') usage("unsupported option " + a);
        else o.addresses.push_back(a);
    }
    if (o.image.empty()) usage("no -o binary image");
    return o;
}

class Answerer {
public:
    explicit Answerer(const Options &o) : o_(o) {
        std::string path = o.image;
        if (std::filesystem::is_directory(path)) path = mt::sym::dsym_dwarf_files(path).at(0);
        auto info = mt::sym::inspect_object(path);
        const mt::sym::ObjectSlice *slice = nullptr;
        for (const auto &s : info.slices)
            if (o.arch.empty() ? s.arch == "arm64" || info.slices.size() == 1 : s.arch == o.arch) slice = &s;
        if (!slice) usage("no " + (o.arch.empty() ? std::string("default") : o.arch) + " architecture in " + o.image);
        path_ = path;
        arch_ = info.kind == mt::sym::ObjectKind::MachO ? slice->arch : "";
        vmaddr_ = slice->text_vmaddr;
        binary_ = std::filesystem::path(path).filename().string();
        llvm::symbolize::LLVMSymbolizer::Options so;
        so.Demangle = true;
        so.DefaultArch = arch_;
        sym_ = std::make_unique<llvm::symbolize::LLVMSymbolizer>(so);
    }

    std::string answer(uint64_t addr) {
        uint64_t file_addr = addr;
        if (o_.load) file_addr = addr - *o_.load + vmaddr_;
        else if (o_.slide) file_addr = addr - *o_.slide;
        std::vector<std::string> lines;
        auto res = sym_->symbolizeInlinedCode(path_, {file_addr, llvm::object::SectionedAddress::UndefSection});
        if (res) {
            uint32_t n = res->getNumberOfFrames();
            for (uint32_t k = 0; k < (o_.inlined ? n : std::min<uint32_t>(n, 1)); ++k) {
                // Without -i atos prints the function that holds the address: the outermost.
                const llvm::DILineInfo &li = res->getFrame(o_.inlined ? k : n - 1);
                if (li.FunctionName == llvm::DILineInfo::BadString || li.FunctionName.empty()) break;
                std::string line = li.FunctionName + " (in " + binary_ + ")";
                if (li.FileName != llvm::DILineInfo::BadString && !li.FileName.empty() && li.Line)
                    line += " (" + (o_.full_path ? li.FileName : std::filesystem::path(li.FileName).filename().string()) +
                            ":" + std::to_string(li.Line) + ")";
                else if (li.StartAddress)
                    line += " + " + std::to_string(file_addr - *li.StartAddress);
                lines.push_back(line);
            }
        } else {
            llvm::consumeError(res.takeError());
        }
        if (lines.empty()) {
            char b[64];
            snprintf(b, sizeof b, "0x%" PRIx64 " (in ", addr);
            lines.push_back(b + binary_ + ")");
        }
        std::string out;
        for (size_t i = 0; i < lines.size(); ++i) out += (i ? o_.delimiter : "") + lines[i];
        out += "\n";
        if (o_.inlined) out += "\n";
        return out;
    }

private:
    const Options &o_;
    std::string path_, arch_, binary_;
    uint64_t vmaddr_ = 0;
    std::unique_ptr<llvm::symbolize::LLVMSymbolizer> sym_;
};

}  // namespace

int main(int argc, char **argv) {
    Options o = parse(argc, argv);
    Answerer ans(o);
    std::vector<std::string> addrs = o.addresses;
    if (!o.addr_file.empty()) {
        std::ifstream in(o.addr_file);
        if (!in) usage("cannot read " + o.addr_file);
        std::string tok;
        while (in >> tok) addrs.push_back(tok);
    }
    if (addrs.empty() && o.addr_file.empty()) {
        std::string line;
        while (std::getline(std::cin, line)) {
            std::istringstream ss(line);
            std::string tok;
            while (ss >> tok) {
                fputs(ans.answer(parse_addr(tok, false)).c_str(), stdout);
                fflush(stdout);
            }
        }
        return 0;
    }
    std::string out;
    for (const std::string &a : addrs) out += ans.answer(parse_addr(a, false));
    fputs(out.c_str(), stdout);
    return 0;
}
