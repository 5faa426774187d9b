package io.dlock.mutex.common;

import io.dlock.spi.CodecSupport;
import io.dlock.spi.NodeId;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * Wire format of the census messages every token algorithm shares, written once. An algorithm's
 * codec calls {@link #write} and {@link #read} first; the census messages use the type bytes
 * {@value #HELLO} to {@value #DONE}, which algorithms leave free for them.
 *
 * <pre>
 *   60 Hello   epoch
 *   61 Query   epoch
 *   62 Report  report
 *   63 Done    outcome
 *   report   epoch flags(bit0 holdsToken, bit1 inCS, bit2 waiting) tokenFence maxFence requestNumber
 *   outcome  epoch holder regenerated(byte) fenceFloor
 * </pre>
 */
public final class CensusCodec {

    /** Type byte of a census HELLO. */
    public static final int HELLO = 60;
    /** Type byte of a census QUERY. */
    public static final int QUERY = 61;
    /** Type byte of a census REPORT. */
    public static final int REPORT = 62;
    /** Type byte of a census DONE. */
    public static final int DONE = 63;

    private static final int HOLDS = 1;
    private static final int IN_CS = 2;
    private static final int WAITING = 4;

    private CensusCodec() {
    }

    /**
     * Writes {@code message} with its type byte if it is a census message.
     *
     * @return false (and nothing written) if it is not one
     */
    public static boolean write(Object message, WireWriter out) {
        if (message instanceof CensusMessage.Hello h) {
            out.writeByte(HELLO).writeVarLong(h.epoch());
        } else if (message instanceof CensusMessage.Query q) {
            out.writeByte(QUERY).writeVarLong(q.epoch());
        } else if (message instanceof CensusMessage.Report r) {
            out.writeByte(REPORT);
            writeReport(out, r.report());
        } else if (message instanceof CensusMessage.Done d) {
            out.writeByte(DONE);
            writeOutcome(out, d.outcome());
        } else {
            return false;
        }
        return true;
    }

    /**
     * Reads the census message of type byte {@code tag} (already read) with the algorithm's record
     * constructors.
     *
     * @return the message, or null if {@code tag} is not a census type byte (nothing read)
     * @throws io.dlock.spi.MalformedMessageException for a bad field
     */
    public static <M> M read(int tag, WireReader in, String algorithm, LongFunction<? extends M> hello,
                             LongFunction<? extends M> query, Function<CensusReport, ? extends M> report,
                             Function<CensusOutcome, ? extends M> done) {
        if (tag == HELLO || tag == QUERY) {
            long epoch = in.readVarLong();
            return CodecSupport.build(algorithm, () -> tag == HELLO ? hello.apply(epoch) : query.apply(epoch));
        } else if (tag == REPORT) {
            CensusReport r = readReport(algorithm, in);
            return CodecSupport.build(algorithm, () -> report.apply(r));
        } else if (tag == DONE) {
            CensusOutcome o = readOutcome(algorithm, in);
            return CodecSupport.build(algorithm, () -> done.apply(o));
        }
        return null;
    }

    /** Appends {@code report}. */
    public static void writeReport(WireWriter out, CensusReport report) {
        int flags = (report.holdsToken() ? HOLDS : 0) | (report.inCS() ? IN_CS : 0) | (report.waiting() ? WAITING : 0);
        out.writeVarLong(report.epoch()).writeByte(flags).writeVarLong(report.tokenFence())
                .writeVarLong(report.maxFence()).writeVarLong(report.requestNumber()).writeVarLong(report.tokenEpoch());
    }

    /**
     * Reads a report written by {@link #writeReport}.
     *
     * @param algorithm the algorithm's configuration name, for error messages
     * @throws io.dlock.spi.MalformedMessageException for unknown flag bits or a field the record refuses
     */
    public static CensusReport readReport(String algorithm, WireReader in) {
        long epoch = in.readVarLong();
        int flags = in.readByte();
        if ((flags & ~(HOLDS | IN_CS | WAITING)) != 0) {
            throw new io.dlock.spi.MalformedMessageException("bad " + algorithm + " census report flags " + flags);
        }
        long tokenFence = in.readVarLong();
        long maxFence = in.readVarLong();
        long requestNumber = in.readVarLong();
        long tokenEpoch = in.readVarLong();
        return CodecSupport.build(algorithm, () -> new CensusReport(epoch, (flags & HOLDS) != 0,
                (flags & IN_CS) != 0, tokenFence, maxFence, requestNumber, (flags & WAITING) != 0, tokenEpoch));
    }

    /** Appends {@code outcome}. */
    public static void writeOutcome(WireWriter out, CensusOutcome outcome) {
        out.writeVarLong(outcome.epoch()).writeNodeId(outcome.holder())
                .writeBoolean(outcome.regenerated()).writeVarLong(outcome.fenceFloor());
    }

    /**
     * Reads an outcome written by {@link #writeOutcome}.
     *
     * @throws io.dlock.spi.MalformedMessageException for a field the record refuses
     */
    public static CensusOutcome readOutcome(String algorithm, WireReader in) {
        long epoch = in.readVarLong();
        NodeId holder = in.readNodeId();
        boolean regenerated = in.readBoolean();
        long floor = in.readVarLong();
        return CodecSupport.build(algorithm, () -> new CensusOutcome(epoch, holder, regenerated, floor));
    }
}
