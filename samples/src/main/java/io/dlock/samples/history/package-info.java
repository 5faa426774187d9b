/**
 * A history checker in the manner of Jepsen's Knossos mutex model over real-time intervals: clients of a lock record
 * what they did and saw, with the monotonic clock, while a nemesis injects faults; afterwards
 * {@link io.dlock.samples.history.HistoryChecker} judges the recorded history. It needs nothing of dlock's runtime
 * (it reads text), so it judges any {@code java.util.concurrent.locks.Lock}-like lock whose clients record this
 * format: dlock's, a peer's, or a deliberately broken one.
 *
 * <pre>{@code
 * History history = History.read(Path.of("history.txt"));
 * CheckReport report = HistoryChecker.check(history, StoreFile.read(Path.of("store.txt")));
 * if (!report.valid()) { ... report.violations() ... }
 * log.info(report.summary());
 * }</pre>
 *
 * <h2>The history format</h2>
 * A text file, one event per line, fields separated by single spaces, blank lines and lines starting with {@code #}
 * ignored: {@code <timeNanos> <process> <op> [<arg>...]}. {@code timeNanos} is a {@code System.nanoTime()} reading
 * (on Linux {@code CLOCK_MONOTONIC}, one clock for every process of a machine). Lines need not be sorted; the checker
 * sorts them by time, keeping the file's order for equal times. {@code process} is {@code nemesis} (the fault
 * injector), {@code <node>.<incarnation>.0} (a node's JVM) or {@code <node>.<incarnation>.<thread>} with a thread
 * other than 0 (a client; each client does one operation at a time). A restarted JVM is a new incarnation.
 * <table>
 *   <caption>Operations</caption>
 *   <tr><th>process</th><th>line</th><th>meaning</th></tr>
 *   <tr><td>client</td><td>{@code acquire}</td><td>the client invoked lock()/tryLock()</td></tr>
 *   <tr><td>client</td><td>{@code granted <token>}</td><td>the acquire returned holding the lock, with this fencing
 *       token</td></tr>
 *   <tr><td>client</td><td>{@code refused}</td><td>the acquire returned without the lock (timed out)</td></tr>
 *   <tr><td>client</td><td>{@code release}</td><td>the client invoked unlock()</td></tr>
 *   <tr><td>client</td><td>{@code released}</td><td>unlock() returned: the hold ended normally</td></tr>
 *   <tr><td>client</td><td>{@code lost <token>}</td><td>unlock() threw "ownership lost": the hold ended and its holder
 *       was told it may have overlapped another</td></tr>
 *   <tr><td>client or JVM</td><td>{@code told <token>}</td><td>an ownership listener said that hold was lost
 *       (counted only)</td></tr>
 *   <tr><td>client</td><td>{@code write <token> <value>}</td><td>the fenced store accepted this client's write of
 *       counter value {@code value} (recorded between {@code granted} and {@code release})</td></tr>
 *   <tr><td>client</td><td>{@code stale <token>}</td><td>the fenced store refused this client's write</td></tr>
 *   <tr><td>any</td><td>{@code error <text...>}</td><td>an unexpected exception; it ends a pending acquire (then
 *       indeterminate) or a pending unlock</td></tr>
 *   <tr><td>JVM</td><td>{@code started <millisToStart>}</td><td>the node's service started</td></tr>
 *   <tr><td>JVM</td><td>{@code startfail <text...>}</td><td>the node's start threw</td></tr>
 *   <tr><td>JVM</td><td>{@code view <epoch> <size> <primary>}</td><td>the node installed a view (informational, for
 *       reading the availability figures)</td></tr>
 *   <tr><td>nemesis</td><td>{@code begin <kind> <n1,n2,...|-> [majority <m1,m2,...>]}</td><td>a fault window
 *       begins; {@code kind} is any word ({@code pause}, {@code isolate}, {@code split}, {@code kill},
 *       {@code restart}, {@code rolling}, {@code leave}, ...); the majority defaults to every node seen minus the
 *       targets</td></tr>
 *   <tr><td>nemesis</td><td>{@code end <kind> <targets>} or {@code heal <kind> <targets>}</td><td>the fault window of
 *       that kind and targets begun first and still open ends (the heal time)</td></tr>
 *   <tr><td>nemesis</td><td>{@code crash <node>}</td><td>kill -9 of the node's JVM: its clients' holds end there,
 *       their pending acquires become indeterminate, later events of that incarnation are ignored</td></tr>
 * </table>
 * A line that does not fit (an unknown operation, a token that is not a number, a process id of another shape) is
 * refused by {@link io.dlock.samples.history.History#parse} with its line number and text.
 *
 * <h2>Holds</h2>
 * A hold is one {@code granted} and what followed. Its holder certainly held the lock from its {@code granted} to its
 * {@code release} (or to its node's crash): the certain interval. The grant itself happened somewhere in
 * {@code [acquire, granted]}, and the hold was certainly over at its {@code released}, {@code lost} or crash.
 * Overlap is judged on certain intervals (no false alarm: two intervals that only touch do not overlap), real-time
 * order on the uncertain bounds.
 *
 * <h2>The rules</h2>
 * <ol>
 *   <li><b>One holder at a time.</b> Two holds whose certain intervals share more than an instant are a violation,
 *       unless the one granted first ended {@code lost} or was killed by its node's crash; the later one's own end
 *       does not matter. Holds still open at the end of the history are counted and left out.</li>
 *   <li><b>Fencing tokens in real-time order.</b> If hold A was certainly over before hold B's {@code acquire}, A's
 *       token must be smaller than B's. Holds not so ordered may have either order. Two holds with the same token are
 *       a violation.</li>
 *   <li><b>The fenced store.</b> Its accepted entries, in store order, count 1, 2, 3, ... (a skipped value is a lost
 *       update, a repeated one a duplicated update), their tokens never decrease, and every {@code write} a client
 *       recorded is among them as that (token, value). Entries no client recorded are fine (the writer may have been
 *       killed before it logged).</li>
 *   <li><b>Availability</b> (figures, no verdict): per fault window, the time from its begin to the next grant of a
 *       majority client, the longest gap between majority grants within [begin, end + 10 s], and each target's
 *       rejoin time from the end to its first grant, and also from the last heal before that grant (where later
 *       faults began before the target was granted, the latest of their ends: a chain of overlapping faults is
 *       judged from its last heal); and the longest stall between any two grants of the run.</li>
 * </ol>
 * A failed start, an {@code error} and a client's events out of sequence (a recorder's bug, e.g. {@code granted}
 * without {@code acquire}) are violations too: {@link io.dlock.samples.history.CheckReport#valid()} is true only
 * without any. Each violation line names the holds involved (process, token, times in milliseconds since the
 * history's first event) and the rule broken.
 *
 * <p>The checks sort and sweep (O(n log n) for n events, no comparison of all pairs): a history of 250 000 events
 * parses and checks in about a second, most of it parsing.
 */
package io.dlock.samples.history;
