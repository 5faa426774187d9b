package io.dlock.sharedmemory.jcstress;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.infra.Status;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.GradingResult;

/**
 * Runs jcstress (same command-line options as {@code org.openjdk.jcstress.Main}) and turns its verdicts into an
 * exit code, which jcstress itself does not do: the build fails unless
 * <ul>
 *   <li>every selected test ran (jcstress skips, with only a console line, a test with more actors than CPUs),</li>
 *   <li>every test ran without errors (a test marked {@link ExpectedToBeCaught} may also time out: its broken lock can
 *       spin for ever) and, unless so marked, passed in every configuration,</li>
 *   <li>every test marked {@link ExpectedToBeCaught} observed at least one of its FORBIDDEN outcomes.</li>
 * </ul>
 * Used by the {@code jcstress} execution in this module's pom; see docs/development.md (Longer runs) for the quick and full modes.
 */
public final class JcstressGate {

    private JcstressGate() {
    }

    public static void main(String[] args) throws Exception {
        Options options = new Options(args);
        if (!options.parse()) {
            System.exit(2);
        }
        JCStress jcstress = new JCStress(options);
        SortedSet<String> selected = jcstress.getTests();
        try {
            jcstress.run();
        } catch (AssertionError testErrors) {
            // jcstress's report printer throws after printing when a test threw or crashed; the checks below report it.
            System.out.println("jcstress reported test errors: " + testErrors.getMessage());
        }

        InProcessCollector collector = new InProcessCollector();
        DiskReadCollector reader = new DiskReadCollector(options.getResultFile(), collector);
        reader.dump();
        reader.close();

        Map<String, List<TestResult>> byTest = new TreeMap<>();
        for (TestResult result : collector.getTestResults()) {
            byTest.computeIfAbsent(result.getName(), name -> new ArrayList<>()).add(result);
        }

        List<String> problems = new ArrayList<>();
        List<String> verdicts = new ArrayList<>();
        List<String> details = new ArrayList<>();
        for (String test : selected) {
            List<TestResult> results = byTest.getOrDefault(test, List.of());
            if (results.isEmpty()) {
                problems.add(test + ": did not run (more actors than CPUs? jcstress skips such tests)");
                continue;
            }
            ExpectedToBeCaught expectedViolation = Class.forName(test).getAnnotation(ExpectedToBeCaught.class);
            long samples = 0;
            long forbiddenSamples = 0;
            int configurationsWithForbidden = 0;
            boolean allPassed = true;
            for (TestResult result : results) {
                if (result.status() == Status.TIMEOUT_ERROR && expectedViolation != null) {
                    // the broken variant may also spin for ever (a plain read hoisted out of its wait loop): that
                    // is the bug showing, not a harness failure; it still has to be caught below
                    details.add("    " + test.substring(test.lastIndexOf('.') + 1) + " " + result.getConfig().jvmArgs
                            + ": timed out (its threads spun for ever)");
                } else if (result.status() != Status.NORMAL) {
                    problems.add(test + ": " + result.status() + " " + result.getMessages());
                }
                samples += result.getTotalCount();
                allPassed &= result.grading().isPassed;
                long forbiddenHere = 0;
                for (GradingResult outcome : result.grading().gradingResults.values()) {
                    if (outcome.expect == Expect.FORBIDDEN) {
                        forbiddenHere += outcome.count;
                    }
                }
                forbiddenSamples += forbiddenHere;
                if (expectedViolation != null) {
                    details.add("    " + test.substring(test.lastIndexOf('.') + 1) + " " + result.getConfig().jvmArgs
                            + ": " + forbiddenHere + " forbidden of " + result.getTotalCount());
                }
                configurationsWithForbidden += forbiddenHere > 0 ? 1 : 0;
            }
            String counts = samples + " samples, " + forbiddenSamples + " forbidden, in " + configurationsWithForbidden
                    + " of " + results.size() + " configurations";
            if (expectedViolation == null) {
                if (!allPassed || forbiddenSamples > 0) {
                    problems.add(test + ": FAILED, a forbidden outcome was observed (" + counts + ")");
                }
                verdicts.add((allPassed ? "passed  " : "FAILED  ") + test + " (" + counts + ")");
            } else {
                boolean caught = forbiddenSamples > 0;
                if (!caught) {
                    problems.add(test + ": the broken variant was NOT caught (" + counts + "); expected: "
                            + expectedViolation.value());
                }
                verdicts.add((caught ? "caught  " : "MISSED  ") + test + " (" + counts + ", expected to be caught: "
                        + expectedViolation.value() + ")");
            }
        }

        System.out.println();
        System.out.println("jcstress gate (" + options.getTime() + " ms x " + options.getIterations() + " iterations x "
                + options.getForks() + " forks per configuration):");
        verdicts.forEach(line -> System.out.println("  " + line));
        details.forEach(System.out::println);
        if (!problems.isEmpty()) {
            System.out.println("jcstress gate FAILED:");
            problems.forEach(line -> System.out.println("  " + line));
            System.exit(1);
        }
        System.out.println("jcstress gate: all " + selected.size() + " tests behaved as required");
    }
}
