import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { ValidationFailed } from '@app/trainees/decider';
import type { EnhancedErrors } from '@app/trainees/contract';
import { catchError, type Observable } from 'rxjs';
import type { ApiRequest } from '../auth/request-context';

/** A trainee create or update 422 in the enhanced form (docs/reference/API-FACTS.md §5.4). */
export class EnhancedValidationFailed extends Error {
  constructor(readonly body: EnhancedErrors) {
    super(body.message);
  }
}

/**
 * On POST /trainees and PUT/PATCH /trainees/{id}: with the request header `Enhanced-Errors: true`,
 * a validation 422 answers `{message, errors}` with the errors keyed by field, grouped as the
 * version groups them (docs/reference/API-FACTS.md §5.4; the version's contract converts). Without
 * the header, and for every other error, nothing changes.
 */
@Injectable()
export class EnhancedErrorsInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const header = req.headers['enhanced-errors'];
    const enhanced = typeof header === 'string' && header.trim().toLowerCase() === 'true';
    return next.handle().pipe(
      catchError((err: unknown) => {
        if (enhanced && err instanceof ValidationFailed && req.contract)
          throw new EnhancedValidationFailed(req.contract.enhancedErrors(err.messages));
        throw err;
      }),
    );
  }
}
