package io.dlock.samples;

import io.dlock.inmemory.sim.DelayModel;

/** The {@code --delay} of a simulated run: every message takes one time unit, or a random 1 to 10. */
enum MessageDelay {
    /** One time unit per message: steps are docs/algorithms.md 0.4's message times. */
    UNIT,
    /** Uniform 1 to 10 per message, drawn from the run's seed ({@link DelayModel#standard()}). */
    RANDOM;

    /** The simulator's delay model. */
    DelayModel model() {
        return this == UNIT ? DelayModel.unit() : DelayModel.standard();
    }

    @Override
    public String toString() {
        return ChoiceConverter.nameOf(this);
    }

    /** Converts {@code unit} or {@code random}. */
    static final class Converter extends ChoiceConverter<MessageDelay> {
        /** The converter picocli instantiates. */
        Converter() {
            super("a delay model", byName(MessageDelay.class));
        }
    }
}
