package io.dlock.mutex.common;

import io.dlock.spi.CodecSupport;
import io.dlock.NodeId;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.util.function.Function;

/**
 * Wire format of the census messages every token algorithm shares, written once. An algorithm's
 * codec calls {@link #write} and {@link #read} for its {@link CensusCarrier} record; the census
 * messages use the type bytes {@value #HELLO} to {@value #DONE}, which algorithms leave free for them.
 *
 * <pre>
 *   60 Hello   epoch
 *   61 Query   epoch
 *   62 Report  report
 *   63 Done    outcome
 *   report   epoch flags(bit0 holdsToken, bit1 inCS, bit2 waiting) tokenFence maxFence requestNumber tokenEpoch
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
     * Writes {@code message}, which must carry a census message ({@link CensusCarrier}), with its type
     * byte: the last branch of a token algorithm's encoder, after its own messages.
     *
     * @param algorithm the algorithm's configuration name, for the error message
     * @throws IllegalArgumentException if {@code message} carries no census message (it is not one of
     *                                  the algorithm's messages)
     */
    public static void write(Object message, WireWriter out, String algorithm) {
        if (!(message instanceof CensusCarrier carrier)) {
            throw new IllegalArgumentException("not a " + algorithm + " message: " + message);
        }
        CensusMessage census = carrier.message();
        if (census instanceof CensusMessage.Hello h) {
            out.writeByte(HELLO).writeVarLong(h.epoch());
        } else if (census instanceof CensusMessage.Query q) {
            out.writeByte(QUERY).writeVarLong(q.epoch());
        } else if (census instanceof CensusMessage.Report r) {
            out.writeByte(REPORT);
            writeReport(out, r.report());
        } else if (census instanceof CensusMessage.Done d) {
            out.writeByte(DONE);
            writeOutcome(out, d.outcome());
        }
    }

    /**
     * Reads the census message of type byte {@code tag} (already read) and wraps it in the
     * algorithm's {@link CensusCarrier} record: the last branch of a token algorithm's decoder, after
     * its own type bytes.
     *
     * @param wrap the algorithm's carrier constructor ({@code Census::new})
     * @throws io.dlock.spi.MalformedMessageException for a bad field, or if {@code tag} is not a census
     *                                                 type byte either (an unknown type)
     */
    public static <M> M read(int tag, WireReader in, String algorithm, Function<CensusMessage, ? extends M> wrap) {
        CensusMessage census;
        if (tag == HELLO || tag == QUERY) {
            long epoch = in.readVarLong();
            census = CodecSupport.build(algorithm,
                    () -> tag == HELLO ? new CensusMessage.Hello(epoch) : new CensusMessage.Query(epoch));
        } else if (tag == REPORT) {
            CensusReport r = readReport(algorithm, in);
            census = new CensusMessage.Report(r);
        } else if (tag == DONE) {
            CensusOutcome o = readOutcome(algorithm, in);
            census = new CensusMessage.Done(o);
        } else {
            throw CodecSupport.unknownType(algorithm, tag);
        }
        return CodecSupport.build(algorithm, () -> wrap.apply(census));
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
