import { useState } from 'react';
import { Stepper } from '@mantine/core';
import { AuthLayout } from './AuthLayout.tsx';
import { EmbeddingStep } from './EmbeddingStep.tsx';
import { ModelStep, type ModelChoice } from './ModelStep.tsx';

const subtitles = [
  'Which model answers your questions and extracts entities. You can change it any time in Settings.',
  'Which model turns passages into vectors for search by meaning.',
];

/** After the account: the model, then the embeddings; both can be skipped (the builtin ones stay). */
export function FirstRunWizard({ onDone }: { onDone: () => void }) {
  const [step, setStep] = useState(0);
  const [model, setModel] = useState<ModelChoice>({ localServer: null });
  return (
    <AuthLayout title={step === 0 ? 'Choose a model' : 'Choose embeddings'} subtitle={subtitles[step]} width={560}>
      <Stepper active={step} size="xs" allowNextStepsSelect={false}>
        <Stepper.Step label="Model">
          <ModelStep
            onDone={(choice) => {
              setModel(choice);
              setStep(1);
            }}
          />
        </Stepper.Step>
        <Stepper.Step label="Embeddings">
          <EmbeddingStep model={model} onDone={onDone} />
        </Stepper.Step>
      </Stepper>
    </AuthLayout>
  );
}
