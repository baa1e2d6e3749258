<#
Patchwell worklet win-autorun-disabled: evaluation.
Checks that AutoRun and AutoPlay cannot start programs from removable media: under
HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\Explorer, NoDriveTypeAutoRun is
255 (all drive types) and NoAutorun is 1.
Changes nothing. Exit 0 = compliant, 1 = needs remediation.
#>
$check = {
    $key = 'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\Explorer'
    $values = Get-ItemProperty -Path $key -ErrorAction SilentlyContinue
    $types = $values.NoDriveTypeAutoRun
    $autorun = $values.NoAutorun
    if ($types -eq 255 -and $autorun -eq 1) {
        Write-Output 'Compliant: AutoRun is off for all drive types.'
        exit 0
    }
    Write-Output "AutoRun is not fully off (NoDriveTypeAutoRun=$types, NoAutorun=$autorun)."
    exit 1
}

# HKLM\SOFTWARE is redirected for 32-bit processes; read the 64-bit view.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $check
    exit $LASTEXITCODE
}
& $check
