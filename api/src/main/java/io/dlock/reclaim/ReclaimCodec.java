package io.dlock.reclaim;

import io.dlock.protocol.MessageCodec;
import io.dlock.reclaim.ReclaimMessage.Answer;
import io.dlock.reclaim.ReclaimMessage.Decide;
import io.dlock.reclaim.ReclaimMessage.Freeze;
import io.dlock.reclaim.ReclaimMessage.Inquire;
import io.dlock.reclaim.ReclaimMessage.Nominate;
import io.dlock.reclaim.ReclaimMessage.Vote;
import io.dlock.spi.CodecSupport;
import io.dlock.NodeId;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Wire format of {@link ReclaimMessage}: one type byte, then the fields; counts and numbers as unsigned
 * varints, names as strings, a vote's counters as a count followed by (member, count) pairs.
 *
 * <pre>
 *   1 Nominate  n name*
 *   2 Freeze    round n name*
 *   3 Vote      round n (name atRest fence k (member count)* k (member count)*)*
 *   4 Decide    round floor n name*
 *   5 Inquire   steward round
 *   6 Answer    steward round committed floor
 * </pre>
 */
public final class ReclaimCodec implements MessageCodec<ReclaimMessage> {

    private static final String WHAT = "reclamation";
    private static final int NOMINATE = 1;
    private static final int FREEZE = 2;
    private static final int VOTE = 3;
    private static final int DECIDE = 4;
    private static final int INQUIRE = 5;
    private static final int ANSWER = 6;
    /** Most counters one vote may carry (one per member). */
    private static final int MAX_MEMBERS = 100_000;

    @Override
    public void encode(ReclaimMessage message, WireWriter out) {
        if (message instanceof Nominate n) {
            out.writeByte(NOMINATE);
            writeNames(n.names(), out);
        } else if (message instanceof Freeze f) {
            out.writeByte(FREEZE).writeVarLong(f.round());
            writeNames(f.names(), out);
        } else if (message instanceof Vote v) {
            out.writeByte(VOTE).writeVarLong(v.round()).writeVarLong(v.votes().size());
            for (LockVote vote : v.votes()) {
                out.writeString(vote.name()).writeBoolean(vote.atRest()).writeVarLong(vote.fence());
                writeCounters(vote.sent(), out);
                writeCounters(vote.received(), out);
            }
        } else if (message instanceof Decide d) {
            out.writeByte(DECIDE).writeVarLong(d.round()).writeVarLong(d.floor());
            writeNames(d.committed(), out);
        } else if (message instanceof Inquire i) {
            out.writeByte(INQUIRE).writeNodeId(i.round().steward()).writeVarLong(i.round().number());
        } else if (message instanceof Answer a) {
            out.writeByte(ANSWER).writeNodeId(a.round().steward()).writeVarLong(a.round().number())
                    .writeBoolean(a.committed()).writeVarLong(a.floor());
        } else {
            throw new IllegalArgumentException("not a reclamation message: " + message);
        }
    }

    @Override
    public ReclaimMessage decode(WireReader in) {
        int tag = in.readByte();
        switch (tag) {
            case NOMINATE:
                return new Nominate(readNames(in));
            case FREEZE: {
                long round = in.readVarLong();
                return new Freeze(round, readNames(in));
            }
            case VOTE: {
                long round = in.readVarLong();
                int n = in.readVarInt(Reclamation.MAX_NAMES_PER_ROUND);
                List<LockVote> votes = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    String name = in.readString();
                    boolean atRest = in.readBoolean();
                    long fence = in.readVarLong();
                    Map<NodeId, Long> sent = readCounters(in);
                    Map<NodeId, Long> received = readCounters(in);
                    votes.add(CodecSupport.build(WHAT, () -> new LockVote(name, atRest, fence, sent, received)));
                }
                return new Vote(round, votes);
            }
            case DECIDE: {
                long round = in.readVarLong();
                long floor = in.readVarLong();
                return new Decide(round, readNames(in), floor);
            }
            case INQUIRE:
                return new Inquire(new RoundId(in.readNodeId(), in.readVarLong()));
            case ANSWER:
                return new Answer(new RoundId(in.readNodeId(), in.readVarLong()), in.readBoolean(), in.readVarLong());
            default:
                throw CodecSupport.unknownType(WHAT, tag);
        }
    }

    private static void writeNames(List<String> names, WireWriter out) {
        out.writeVarLong(names.size());
        for (String name : names) {
            out.writeString(name);
        }
    }

    private static List<String> readNames(WireReader in) {
        int n = in.readVarInt(Reclamation.MAX_NAMES_PER_ROUND);
        List<String> names = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            names.add(in.readString());
        }
        return names;
    }

    private static void writeCounters(Map<NodeId, Long> counters, WireWriter out) {
        out.writeVarLong(counters.size());
        for (Map.Entry<NodeId, Long> e : LockVote.sorted(counters).entrySet()) {
            out.writeNodeId(e.getKey()).writeVarLong(e.getValue());
        }
    }

    private static Map<NodeId, Long> readCounters(WireReader in) {
        int n = in.readVarInt(MAX_MEMBERS);
        Map<NodeId, Long> counters = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            counters.put(in.readNodeId(), in.readVarLong());
        }
        return counters;
    }
}
