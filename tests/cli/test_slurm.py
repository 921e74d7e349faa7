#!/usr/bin/env python3
"""SPEC 8.4 on a real Slurm: the shipped contrib/slurm scripts run as a job
array on a single-node cluster that this test starts and stops itself.

The test writes a slurm.conf into a temporary directory (the node's CPU and
memory line from `slurmd -C`, no cgroups, no accounting), starts munged as
the munge user with its own key and socket, then slurmctld and
`slurmd -N localhost`, waits for the node to be idle, and submits:

  * the shard array (`sbatch --parsable --array=0-3 specscan-shard.sbatch 4
    OUT INPUT...`) and the merge job depending on it
    (`--dependency=afterok:ID --kill-on-invalid-dep=yes
    specscan-merge.sbatch 4 OUT`); every job must end COMPLETED (the state
    scontrol reports, not an exit code) and the merged JSON, CSV, table and
    records must equal a single-process run byte for byte;
  * one shard rerun alone (`--array=2` with the same N) after its part was
    lost, with a merge submitted first without it (which fails, naming the
    missing index) and then again;
  * a shard that fails, so the dependent merge is cancelled, not left
    waiting;
  * the submit wrapper (contrib/slurm/specscan-submit) with %K throttling.

Every daemon is stopped by the pid in its pid file, also when the test fails
or is interrupted; the Slurm and munge logs are printed on failure.  Without
root, or without the Slurm and munge programs, the test exits 77 (skipped)
and says why.
"""

import atexit
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sslib  # noqa: E402
from sslib import SRCDIR, td  # noqa: E402

# absolute: the jobs start in the test's directory
CONTRIB = os.path.abspath(os.path.join(SRCDIR, "contrib", "slurm"))
SHARD = os.path.join(CONTRIB, "specscan-shard.sbatch")
MERGE = os.path.join(CONTRIB, "specscan-merge.sbatch")
SUBMIT = os.path.join(CONTRIB, "specscan-submit")

PROGRAMS = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scontrol",
            "scancel", "zstd", "tar"]
JOB_TIMEOUT = 180  # seconds for one batch of jobs to leave the queue
START_TIMEOUT = 60  # seconds for the node to become idle


def skip(why):
    sys.stderr.write("test_slurm: skipped: %s\n" % why)
    sys.exit(77)


def which(name):
    """A program on PATH or in the sbin directories (root's PATH may lack
    them under some harnesses)."""
    return shutil.which(name, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie of ours still answers kill(0); reap it if it is our child
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return False
    except ChildProcessError:
        pass
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ", 1)[1][:1] != "Z"
    except OSError:
        return False


class Cluster:
    """A single-node Slurm (and its munged) in a temporary directory.

    start() brings it up or raises; stop() stops every daemon that start()
    started, by the pid in its pid file, and may be called any number of
    times, also after a failed start()."""

    def __init__(self, root):
        self.root = root
        self.daemons = []  # (name, pid file), in start order
        self.started = []  # (name, pid) actually running, in start order
        self.mdir = os.path.join(root, "munge")
        self.msock = os.path.join(self.mdir, "munge.socket")
        self.conf = os.path.join(root, "slurm.conf")
        self.logs = {
            "munged": os.path.join(self.mdir, "munged.log"),
            "slurmctld": os.path.join(root, "slurmctld.log"),
            "slurmd": os.path.join(root, "slurmd.log"),
        }
        self.env = dict(os.environ)
        self.env["SLURM_CONF"] = self.conf
        for k in list(self.env):
            # a surrounding Slurm job's settings must not leak into ours
            if k.startswith(("SLURM_", "SBATCH_", "SQUEUE_", "SINFO_")) and k != "SLURM_CONF":
                del self.env[k]
        self.env["PATH"] = self.env.get("PATH", "") + ":/usr/sbin:/sbin"

    # -- daemons ---------------------------------------------------------

    def _daemon(self, name, argv, pidfile, preexec=None):
        """Run a daemon that forks into the background and writes pidfile."""
        self.daemons.append((name, pidfile))
        p = subprocess.run(argv, env=self.env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           preexec_fn=preexec, timeout=60)
        deadline = time.monotonic() + 20
        pid = None
        while time.monotonic() < deadline:
            try:
                with open(pidfile) as f:
                    pid = int(f.read().split()[0])
                break
            except (OSError, ValueError, IndexError):
                time.sleep(0.1)
        if pid is None:
            raise RuntimeError("%s did not write %s (exit %d): %s"
                               % (name, pidfile, p.returncode, p.stdout.decode(errors="replace")))
        self.started.append((name, pid))
        if not pid_alive(pid):
            raise RuntimeError("%s (pid %d) exited right after starting" % (name, pid))

    def _start_munged(self):
        mu = pwd.getpwnam("munge")
        os.mkdir(self.mdir)
        os.chown(self.mdir, mu.pw_uid, mu.pw_gid)
        os.chmod(self.mdir, 0o755)
        key = os.path.join(self.mdir, "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chown(key, mu.pw_uid, mu.pw_gid)
        os.chmod(key, 0o400)

        def as_munge():
            os.setgroups([])
            os.setgid(mu.pw_gid)
            os.setuid(mu.pw_uid)

        pidfile = os.path.join(self.mdir, "munged.pid")
        self._daemon("munged", [which("munged"), "--socket", self.msock, "--key-file", key,
                                "--pid-file", pidfile, "--log-file", self.logs["munged"],
                                "--seed-file", os.path.join(self.mdir, "munged.seed")],
                     pidfile, preexec=as_munge)

    def _write_conf(self):
        node = subprocess.run([which("slurmd"), "-C"], stdout=subprocess.PIPE, check=True,
                              env=self.env).stdout.decode().splitlines()[0].split()
        # "NodeName=vm CPUs=2 Boards=1 ... RealMemory=N": keep all but the name
        hw = " ".join(w for w in node if not w.startswith("NodeName="))
        for d in ("state", "spool"):
            os.mkdir(os.path.join(self.root, d))
        r = self.root
        conf = """\
# single-node cluster of specscan's tests/cli/test_slurm.py
ClusterName=specscan
SlurmctldHost=localhost
SlurmctldPort={ctld_port}
SlurmdPort={d_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={sock}
StateSaveLocation={r}/state
SlurmdSpoolDir={r}/spool
SlurmctldPidFile={r}/slurmctld.pid
SlurmdPidFile={r}/slurmd.pid
SlurmctldLogFile={r}/slurmctld.log
SlurmdLogFile={r}/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
DependencyParameters=kill_invalid_depend
MailProg=/bin/true
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MinJobAge=600
NodeName=localhost {hw} State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
""".format(ctld_port=free_port(), d_port=free_port(), sock=self.msock, r=r, hw=hw)
        with open(self.conf, "w") as f:
            f.write(conf)

    def start(self):
        # munged runs as munge and must reach its directory below ours
        os.chmod(self.root, 0o755)
        self._start_munged()
        self._write_conf()
        self._daemon("slurmctld", [which("slurmctld"), "-f", self.conf],
                     os.path.join(self.root, "slurmctld.pid"))
        self._daemon("slurmd", [which("slurmd"), "-N", "localhost", "-f", self.conf],
                     os.path.join(self.root, "slurmd.pid"))
        deadline = time.monotonic() + START_TIMEOUT
        state = ""
        while time.monotonic() < deadline:
            p = self.cmd(["sinfo", "-h", "-N", "-n", "localhost", "-o", "%T"], check=False)
            state = p.stdout.strip()
            if state == "idle":
                return
            time.sleep(0.5)
        raise RuntimeError("the node is not idle after %d s (sinfo says %r)"
                           % (START_TIMEOUT, state))

    def stop(self):
        """Cancel what still runs, then stop the daemons, newest first."""
        if any(n == "slurmctld" for n, _ in self.started):
            self.cmd(["scancel", "--full", "--user", "root"], check=False, timeout=10)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                p = self.cmd(["squeue", "-h", "-o", "%i"], check=False, timeout=10)
                if p.returncode != 0 or not p.stdout.strip():
                    break
                time.sleep(0.5)
        while self.started:
            name, pid = self.started.pop()
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
            deadline = time.monotonic() + 15
            while pid_alive(pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            if pid_alive(pid):
                sys.stderr.write("test_slurm: %s (pid %d) ignored SIGTERM: killed\n" % (name, pid))
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    # -- clients ---------------------------------------------------------

    def cmd(self, argv, check=True, timeout=60, env=None, cwd=None):
        e = dict(self.env)
        if env:
            e.update(env)
        argv = [which(argv[0]) or argv[0]] + list(argv[1:])
        p = subprocess.run(argv, env=e, cwd=cwd, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                           universal_newlines=True)
        if check and p.returncode != 0:
            raise AssertionError("%s: exit %d\n%s%s" % (" ".join(argv), p.returncode,
                                                          p.stdout, p.stderr))
        return p

    def sbatch(self, args, env=None, cwd=None):
        p = self.cmd(["sbatch", "--parsable"] + list(args), env=env, cwd=cwd)
        return p.stdout.strip().split(";")[0]

    def wait(self, job_ids, timeout=JOB_TIMEOUT):
        """Wait until none of job_ids (array jobs included) is queued or
        running."""
        deadline = time.monotonic() + timeout
        while True:
            p = self.cmd(["squeue", "-h", "-o", "%i %T", "-j", ",".join(job_ids)], check=False)
            if p.returncode == 0 and not p.stdout.strip():
                return
            if time.monotonic() > deadline:
                raise AssertionError("jobs %s still queued after %d s:\n%s%s"
                                     % (",".join(job_ids), timeout, p.stdout, p.stderr))
            time.sleep(0.5)

    def states(self, job_id):
        """JobState of every job of job_id (one per array task), by task
        index ('' for a plain job), from scontrol."""
        p = self.cmd(["scontrol", "-o", "show", "job", job_id])
        out = {}
        for line in p.stdout.splitlines():
            f = dict(w.split("=", 1) for w in line.split() if "=" in w)
            out[f.get("ArrayTaskId", "")] = f.get("JobState")
        return out

    def dump_logs(self):
        for name, path in sorted(self.logs.items()):
            sys.stderr.write("\n===== %s (%s, last 60 lines) =====\n" % (name, path))
            try:
                with open(path, errors="replace") as f:
                    sys.stderr.write("".join(f.readlines()[-60:]))
            except OSError as e:
                sys.stderr.write("(%s)\n" % e)


# --------------------------------------------------------------------------

class Slurm(sslib.Case):
    cluster = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="specscan-slurm-")
        cls.cluster = Cluster(cls.tmp)
        try:
            cls.cluster.start()
        except BaseException:
            cls.cluster.dump_logs()
            cls.cluster.stop()
            shutil.rmtree(cls.tmp, ignore_errors=True)
            raise
        cls.specscan = os.path.abspath(sslib.SPECSCAN)
        cls.failed = False

    @classmethod
    def tearDownClass(cls):
        if cls.failed:
            cls.cluster.dump_logs()
            cls.failed = True  # keep the directory for a look
        cls.cluster.stop()
        if not cls.failed and not os.environ.get("SPECSCAN_KEEP_SLURM"):
            shutil.rmtree(cls.tmp, ignore_errors=True)
        else:
            sys.stderr.write("test_slurm: kept %s\n" % cls.tmp)

    def run(self, result=None):
        before = len(result.failures) + len(result.errors) if result else 0
        out = super().run(result)
        if result and len(result.failures) + len(result.errors) > before:
            type(self).failed = True
        return out

    # -- helpers ---------------------------------------------------------

    def inputs(self):
        """The units of the run, more than the shards: files of every
        kind, an artifact directory and a zstd-compressed tar of captures."""
        arc = os.path.join(self.tmp, "captures.tar.zst")
        if not os.path.exists(arc):
            subprocess.run(["tar", "--zstd", "-cf", arc, "-C", td(), "engines/llamacpp_stream.sse",
                            "engines/sse_comment_first.sse", "artifacts/run2"], check=True)
        return [os.path.abspath(td(p)) for p in (
            "sample/aiperf_raw_vllm.jsonl", "engines/vllm_bodies.jsonl",
            "engines/trtllm_streams.sse", "engines/llamacpp_bodies.jsonl",
            "records/profile_export.jsonl", "mixed/mixed_garbage.jsonl",
            "engines/sglang_bodies.jsonl", "artifacts/run1")] + [arc]

    def outdir(self, name):
        d = os.path.join(self.tmp, name)
        os.mkdir(d)
        return d

    def env(self):
        return {"SPECSCAN": self.specscan, "LC_ALL": "C.UTF-8", "NO_COLOR": "1"}

    def reference(self, name, inputs, extra=()):
        """What one process over all inputs writes: {file name: bytes}."""
        d = self.outdir(name)
        e = dict(os.environ)
        e.update(self.env())
        p = subprocess.run([self.specscan, "--json", os.path.join(d, "spec_decode.json"),
                            "--csv", os.path.join(d, "spec_decode.csv"), "-f", "table",
                            "--records", os.path.join(d, "records.jsonl.zst")]
                           + list(extra) + list(inputs),
                           env=e, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, check=True)
        with open(os.path.join(d, "spec_decode.txt"), "wb") as f:
            f.write(p.stdout)
        return self.report(d)

    def report(self, d, names=("spec_decode.json", "spec_decode.csv", "spec_decode.txt",
                               "records.jsonl.zst")):
        """The report files of d; compressed ones as zstd -dc reads them."""
        out = {}
        for n in names:
            if n.endswith(".zst"):
                out[n] = subprocess.run(["zstd", "-dc", os.path.join(d, n)], check=True,
                                        stdout=subprocess.PIPE).stdout
                continue
            with open(os.path.join(d, n), "rb") as f:
                out[n] = f.read()
        return out

    def assertCompleted(self, job_id, n_tasks=None):
        st = self.cluster.states(job_id)
        if n_tasks is not None:
            self.assertEqual(len(st), n_tasks, "tasks of job %s: %r" % (job_id, st))
        self.assertEqual(set(st.values()), {"COMPLETED"}, "job %s: %r" % (job_id, st))

    def log_text(self, path):
        with open(path, errors="replace") as f:
            return f.read()

    # -- tests -----------------------------------------------------------

    def test_array_then_merge(self):
        """The issue's run: an array of 4 shards, a dependent merge, the
        merged report equal to the single run byte for byte."""
        inputs = self.inputs()
        want = self.reference("ref", inputs)
        out = self.outdir("run")
        logs = os.path.join(out, "%x-%A_%a.out")
        array = self.cluster.sbatch(["--array=0-3", "--cpus-per-task=1", "--output=" + logs,
                                     SHARD, "4", out] + inputs, env=self.env(), cwd=self.tmp)
        merge = self.cluster.sbatch(["--dependency=afterok:" + array, "--kill-on-invalid-dep=yes",
                                     "--cpus-per-task=1",
                                     "--output=" + os.path.join(out, "merge-%j.out"),
                                     MERGE, "4", out, "--records",
                                     os.path.join(out, "records.jsonl.zst")],
                                    env=self.env(), cwd=self.tmp)
        self.cluster.wait([array, merge])
        self.assertCompleted(array, 4)
        self.assertCompleted(merge, 1)
        self.assertEqual(self.report(out), want)
        self.assertEqual(sorted(f for f in os.listdir(out) if f.startswith("part-")),
                         ["part-%d.jsonl.zst" % i for i in range(4)])

    def test_rerun_one_index(self):
        """A lost part: the merge fails and names it; rerunning that index
        alone with the same N, then merging again, gives the full report."""
        inputs = self.inputs()
        want = self.reference("ref-rerun", inputs)
        out = self.outdir("rerun")
        env = self.env()
        array = self.cluster.sbatch(["--array=0-3", "--cpus-per-task=1",
                                     "--output=" + os.path.join(out, "shard-%a.out"),
                                     SHARD, "4", out] + inputs, env=env, cwd=self.tmp)
        self.cluster.wait([array])
        self.assertCompleted(array, 4)
        os.unlink(os.path.join(out, "part-2.jsonl.zst"))
        merge = self.cluster.sbatch(["--cpus-per-task=1",
                                     "--output=" + os.path.join(out, "merge-%j.out"),
                                     MERGE, "4", out], env=env, cwd=self.tmp)
        self.cluster.wait([merge])
        self.assertEqual(self.cluster.states(merge), {"": "FAILED"})
        self.assertIn("indexes 2)", self.log_text(os.path.join(out, "merge-%s.out" % merge)))
        self.assertFalse(os.path.exists(os.path.join(out, "spec_decode.json")))

        again = self.cluster.sbatch(["--array=2", "--cpus-per-task=1",
                                     "--output=" + os.path.join(out, "shard-%a.out"),
                                     SHARD, "4", out] + inputs, env=env, cwd=self.tmp)
        merge = self.cluster.sbatch(["--dependency=afterok:" + again, "--kill-on-invalid-dep=yes",
                                     "--cpus-per-task=1",
                                     "--output=" + os.path.join(out, "merge-%j.out"),
                                     MERGE, "4", out, "--records",
                                     os.path.join(out, "records.jsonl.zst")],
                                    env=env, cwd=self.tmp)
        self.cluster.wait([again, merge])
        self.assertCompleted(again, 1)
        self.assertCompleted(merge, 1)
        self.assertEqual(self.report(out), want)

    def test_failed_shard_cancels_merge(self):
        """A failing task: afterok never holds, and --kill-on-invalid-dep=yes
        (with DependencyParameters=kill_invalid_depend) cancels the merge."""
        out = self.outdir("failing")
        array = self.cluster.sbatch(["--array=0-1", "--cpus-per-task=1",
                                     "--output=" + os.path.join(out, "shard-%a.out"),
                                     SHARD, "2", out, "--input-kind", "bogus"] + self.inputs(),
                                    env=self.env(), cwd=self.tmp)
        merge = self.cluster.sbatch(["--dependency=afterok:" + array, "--kill-on-invalid-dep=yes",
                                     "--cpus-per-task=1",
                                     "--output=" + os.path.join(out, "merge-%j.out"),
                                     MERGE, "2", out], env=self.env(), cwd=self.tmp)
        self.cluster.wait([array, merge])
        self.assertEqual(set(self.cluster.states(array).values()), {"FAILED"})
        self.assertEqual(self.cluster.states(merge), {"": "CANCELLED"})
        self.assertFalse(os.path.exists(os.path.join(out, "spec_decode.json")))

    def test_submit_wrapper(self):
        """specscan-submit: inputs.list, the throttled array and the merge."""
        inputs = self.inputs()
        want = self.reference("ref-submit", inputs)
        out = os.path.join(self.tmp, "submitted")
        p = self.cluster.cmd([SUBMIT, "-p", "-n", "3", "-k", "2", "-c", "1", out] + inputs
                             + ["--merge", "--records", os.path.join(out, "records.jsonl.zst")],
                             env=self.env(), cwd=self.tmp)
        array, merge = p.stdout.split()
        st = self.cluster.cmd(["scontrol", "-o", "show", "job", array]).stdout
        self.assertIn("ArrayTaskThrottle=2", st)
        self.cluster.wait([array, merge])
        self.assertCompleted(array, 3)
        self.assertCompleted(merge, 1)
        self.assertEqual(self.report(out), want)
        # the units: an artifact directory resolves to the export it selects
        units = [os.path.join(i, "profile_export_raw.jsonl") if os.path.isdir(i) else i
                 for i in inputs]
        with open(os.path.join(out, "inputs.list")) as f:
            self.assertEqual(f.read(), "".join(u + "\n" for u in units))
        # every shard wrote a zstd-compressed partial
        for i in range(3):
            with open(os.path.join(out, "part-%d.jsonl.zst" % i), "rb") as f:
                self.assertEqual(f.read(4), b"\x28\xb5\x2f\xfd")
        # a rerun of one index against changed inputs is refused
        p = self.cluster.cmd([SUBMIT, "-n", "3", "-i", "1", out] + inputs[:-1],
                             env=self.env(), cwd=self.tmp, check=False)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("resolve differently", p.stderr)


def main():
    if os.geteuid() != 0:
        skip("needs root (starts munged, slurmctld and slurmd)")
    missing = [p for p in PROGRAMS if not which(p)]
    if missing:
        skip("not installed: %s (apt-get install --no-install-recommends "
             "slurm-wlm slurmctld slurmd slurm-client munge)" % " ".join(missing))
    try:
        pwd.getpwnam("munge")
    except KeyError:
        skip("no munge user (install the munge package)")

    def interrupted(signum, frame):
        raise KeyboardInterrupt("signal %d" % signum)

    for s in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, interrupted)
    # an interrupt can skip tearDownClass: the daemons are stopped anyway
    atexit.register(lambda: Slurm.cluster and Slurm.cluster.stop())
    if not os.access(sslib.SPECSCAN, os.X_OK):
        sys.stderr.write("specscan binary not found at %s (set SPECSCAN)\n" % sslib.SPECSCAN)
        sys.exit(99)
    unittest.main(verbosity=2)


if __name__ == "__main__":
    main()
