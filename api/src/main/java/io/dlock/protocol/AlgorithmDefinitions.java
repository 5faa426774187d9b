package io.dlock.protocol;

import io.dlock.ElectionAlgorithm;
import io.dlock.MutexAlgorithm;
import io.dlock.election.bully.BullyDefinition;
import io.dlock.election.changroberts.ChangRobertsDefinition;
import io.dlock.election.franklin.FranklinDefinition;
import io.dlock.election.lelann.LeLannDefinition;
import io.dlock.election.peterson.PetersonDefinition;
import io.dlock.election.ring.RingDefinition;
import io.dlock.mutex.centralized.CentralizedDefinition;
import io.dlock.mutex.ctta.CttaDefinition;
import io.dlock.mutex.decentralized.DecentralizedDefinition;
import io.dlock.mutex.lamport.LamportDefinition;
import io.dlock.mutex.maekawa.MaekawaDefinition;
import io.dlock.mutex.naimitrehel.NaimiTrehelDefinition;
import io.dlock.mutex.raymond.RaymondDefinition;
import io.dlock.mutex.raynal.RaynalDefinition;
import io.dlock.mutex.ricartagrawala.RicartAgrawalaDefinition;
import io.dlock.mutex.suzukikasami.SuzukiKasamiDefinition;
import io.dlock.mutex.tokenring.TokenRingDefinition;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * The definition behind each algorithm an application names: {@link MutexAlgorithm} and {@link ElectionAlgorithm}
 * are what users choose ({@code dlock.mutex}, {@code dlock.election}); this is where the runtime, the simulator,
 * the command line and the tests find the {@link MutexProtocolDefinition} or {@link ElectionProtocolDefinition}
 * that implements the choice. Applications never need it, which is why the enums do not return these types.
 *
 * <p>One instance per algorithm, made when this class is first used; definitions are stateless and shared.
 */
public final class AlgorithmDefinitions {

    private static final Map<MutexAlgorithm, MutexProtocolDefinition<?>> MUTEX = new EnumMap<>(MutexAlgorithm.class);
    private static final Map<ElectionAlgorithm, ElectionProtocolDefinition<?>> ELECTION =
            new EnumMap<>(ElectionAlgorithm.class);

    static {
        for (MutexAlgorithm a : MutexAlgorithm.values()) {
            MUTEX.put(a, newMutex(a));
        }
        for (ElectionAlgorithm a : ElectionAlgorithm.values()) {
            newElection(a).ifPresent(d -> ELECTION.put(a, d));
        }
    }

    private AlgorithmDefinitions() {
    }

    /** The definition of {@code algorithm}: its characteristics, codec, costs and factory. */
    public static MutexProtocolDefinition<?> mutex(MutexAlgorithm algorithm) {
        return MUTEX.get(algorithm);
    }

    /** The definition of the message-passing election {@code algorithm}; empty for {@link ElectionAlgorithm#VIEW}. */
    public static Optional<ElectionProtocolDefinition<?>> election(ElectionAlgorithm algorithm) {
        return Optional.ofNullable(ELECTION.get(algorithm));
    }

    /** The switch is exhaustive: a new {@link MutexAlgorithm} constant does not compile until it has a definition. */
    private static MutexProtocolDefinition<?> newMutex(MutexAlgorithm algorithm) {
        return switch (algorithm) {
            case CENTRALIZED -> new CentralizedDefinition();
            case RICART_AGRAWALA -> new RicartAgrawalaDefinition();
            case LAMPORT -> new LamportDefinition();
            case TOKEN_RING -> new TokenRingDefinition();
            case SUZUKI_KASAMI -> new SuzukiKasamiDefinition();
            case RAYMOND -> new RaymondDefinition();
            case NAIMI_TREHEL -> new NaimiTrehelDefinition();
            case CTTA -> new CttaDefinition();
            case MAEKAWA -> new MaekawaDefinition();
            case DECENTRALIZED -> new DecentralizedDefinition();
            case RAYNAL -> new RaynalDefinition();
        };
    }

    /** As {@link #newMutex}; {@link ElectionAlgorithm#VIEW} sends no messages and has no definition. */
    private static Optional<ElectionProtocolDefinition<?>> newElection(ElectionAlgorithm algorithm) {
        return Optional.ofNullable(switch (algorithm) {
            case VIEW -> null;
            case BULLY -> new BullyDefinition();
            case RING -> new RingDefinition();
            case LELANN -> new LeLannDefinition();
            case CHANG_ROBERTS -> new ChangRobertsDefinition();
            case FRANKLIN -> new FranklinDefinition();
            case PETERSON -> new PetersonDefinition();
        });
    }
}
