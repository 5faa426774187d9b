package io.dlock.mutex.testing;

import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link MutexEffects} that only records: sends (a broadcast is expanded to one send per other
 * member of the view last {@linkplain #view(View) set}, ascending, as the contract says), grants
 * and timers. The test or the {@link Cluster} drains what it recorded after each event.
 *
 * @param <M> the algorithm's message type
 */
public final class RecordingEffects<M extends ProtocolMessage> implements MutexEffects<M> {

    /** One recorded send. */
    public record Sent<M>(NodeId to, M message) {
    }

    private final NodeId self;
    private View view;
    private final List<Sent<M>> sent = new ArrayList<>();
    private final List<Long> grants = new ArrayList<>();
    private final Map<String, Long> timers = new TreeMap<>();
    private int broadcasts;

    /** @param self the node whose effects these are; {@code view} is what broadcasts go to */
    public RecordingEffects(NodeId self, View view) {
        this.self = self;
        this.view = view;
    }

    /** Sets the view broadcasts expand to; call before handing the protocol that view. */
    public void view(View newView) {
        this.view = newView;
    }

    @Override
    public void send(NodeId to, M message) {
        sent.add(new Sent<>(to, message));
    }

    @Override
    public void broadcast(M message) {
        broadcasts++;
        for (NodeId member : view.members()) {
            if (!member.equals(self)) {
                sent.add(new Sent<>(member, message));
            }
        }
    }

    @Override
    public void granted(long fencingToken) {
        grants.add(fencingToken);
    }

    @Override
    public void setTimer(String name, long delayMillis) {
        timers.put(name, delayMillis);
    }

    @Override
    public void cancelTimer(String name) {
        timers.remove(name);
    }

    /** The sends recorded since the last drain, in call order; clears them. */
    public List<Sent<M>> drainSent() {
        List<Sent<M>> copy = List.copyOf(sent);
        sent.clear();
        return copy;
    }

    /** The fencing tokens granted since the last drain; clears them. */
    public List<Long> drainGrants() {
        List<Long> copy = List.copyOf(grants);
        grants.clear();
        return copy;
    }

    /** Number of {@link #broadcast} calls so far. */
    public int broadcasts() {
        return broadcasts;
    }

    /** Running timers: name to delay. */
    public Map<String, Long> timers() {
        return Map.copyOf(timers);
    }
}
