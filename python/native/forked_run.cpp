#include "python/native/forked_run.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <system_error>
#include <thread>

#include "sim/cli/driver/exit_status.h"
#include "sim/cli/driver/failure.h"
#include "sim/cli/driver/run.h"

namespace pymodule {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void throw_errno(const std::string& what) {
    throw std::system_error(errno, std::generic_category(), what);
}

// The run's files live in a private folder, removed whatever happens.
class TempFolder {
public:
    TempFolder() {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/davinci-sim-py-XXXXXX";
        if (!::mkdtemp(pattern.data())) throw_errno("cannot make a temporary folder " + pattern);
        path_ = pattern;
    }
    ~TempFolder() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    std::string file(const char* name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// In the child: fd `fd` now reads or writes `path`.
bool redirect(int fd, const std::string& path, int flags) {
    const int f = ::open(path.c_str(), flags, 0600);
    if (f < 0) return false;
    const bool ok = ::dup2(f, fd) >= 0;
    ::close(f);
    return ok;
}

[[noreturn]] void child(const cli::RunOptions& opt, const TempFolder& dir, pid_t parent) {
    // A simulation whose interpreter is gone has no one to report to: it
    // ends with it (the forking thread waits in wait_for until the child
    // ends, so the signal never comes early).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    // The banner would land in the captured output of every run.
    ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    if (!redirect(0, "/dev/null", O_RDONLY) || !redirect(1, dir.file("stdout"), O_WRONLY | O_CREAT | O_TRUNC) ||
        !redirect(2, dir.file("stderr"), O_WRONLY | O_CREAT | O_TRUNC))
        ::_exit(cli::kExitEnvironment);  // no message can be written: the parent says so
    int status;
    try {
        status = cli::run(opt);
    } catch (...) {
        status = cli::report_failure(std::current_exception(), std::cerr);
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    // _exit: the parent's atexit handlers, Python's among them, are not
    // this process's to run.
    ::_exit(status);
}

// Waits for `pid`, killing it once `timeout_seconds` (if > 0) have passed.
int wait_for(pid_t pid, double timeout_seconds, ChildRun& out) {
    int raw = 0;
    struct rusage usage {};
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
    auto pause = std::chrono::microseconds(200);
    for (;;) {
        const int options = timeout_seconds > 0 && !out.timed_out ? WNOHANG : 0;
        const pid_t w = ::wait4(pid, &raw, options, &usage);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) throw_errno("waiting for the simulation");
        if (w == 0) {
            if (std::chrono::steady_clock::now() >= deadline) {
                ::kill(pid, SIGKILL);
                out.timed_out = true;
                continue;
            }
            // Polled, not blocked, so that the deadline holds: short pauses
            // first, as most runs are short.
            std::this_thread::sleep_for(pause);
            if (pause < std::chrono::milliseconds(20)) pause *= 2;
        }
    }
    out.cpu_seconds = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                      double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    out.max_rss_kib = usage.ru_maxrss;
    return WIFSIGNALED(raw) ? -WTERMSIG(raw) : WEXITSTATUS(raw);
}

}  // namespace

ChildRun run_in_child(cli::RunOptions opt, double timeout_seconds) {
    TempFolder dir;
    opt.outputs["report-json"] = dir.file("report.json");
    opt.quiet = true;
    // What the parent has buffered would otherwise be written twice.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) throw_errno("cannot start the simulation's process");
    if (pid == 0) child(opt, dir, parent);
    ChildRun out;
    out.status = wait_for(pid, timeout_seconds, out);
    out.stdout_text = read_all(dir.file("stdout"));
    out.stderr_text = read_all(dir.file("stderr"));
    if (out.status == 0) out.report = read_all(dir.file("report.json"));
    return out;
}

}  // namespace pymodule
