package io.dlock.mutex.common;

import io.dlock.spi.NodeId;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * Wire format of the census fields every token algorithm's census messages share, written once:
 * each algorithm writes its own type byte, then calls these.
 *
 * <pre>
 *   report   epoch flags(bit0 holdsToken, bit1 inCS, bit2 waiting) tokenFence maxFence requestNumber
 *   outcome  epoch holder regenerated(byte) fenceFloor
 * </pre>
 */
public final class CensusCodec {

    private static final int HOLDS = 1;
    private static final int IN_CS = 2;
    private static final int WAITING = 4;

    private CensusCodec() {
    }

    /** Appends {@code report}. */
    public static void writeReport(WireWriter out, CensusReport report) {
        int flags = (report.holdsToken() ? HOLDS : 0) | (report.inCS() ? IN_CS : 0) | (report.waiting() ? WAITING : 0);
        out.writeVarLong(report.epoch()).writeByte(flags).writeVarLong(report.tokenFence())
                .writeVarLong(report.maxFence()).writeVarLong(report.requestNumber());
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
        return CodecSupport.build(algorithm, () -> new CensusReport(epoch, (flags & HOLDS) != 0,
                (flags & IN_CS) != 0, tokenFence, maxFence, requestNumber, (flags & WAITING) != 0));
    }

    /** Appends {@code outcome}. */
    public static void writeOutcome(WireWriter out, CensusOutcome outcome) {
        out.writeVarLong(outcome.epoch()).writeVarLong(outcome.holder().value())
                .writeBoolean(outcome.regenerated()).writeVarLong(outcome.fenceFloor());
    }

    /**
     * Reads an outcome written by {@link #writeOutcome}.
     *
     * @throws io.dlock.spi.MalformedMessageException for a field the record refuses
     */
    public static CensusOutcome readOutcome(String algorithm, WireReader in) {
        long epoch = in.readVarLong();
        long holder = in.readVarLong();
        boolean regenerated = in.readBoolean();
        long floor = in.readVarLong();
        return CodecSupport.build(algorithm, () -> new CensusOutcome(epoch, NodeId.of(holder), regenerated, floor));
    }
}
