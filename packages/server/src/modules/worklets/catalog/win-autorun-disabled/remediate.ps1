<#
Patchwell worklet win-autorun-disabled: remediation.
Turns AutoRun off for every drive type: sets NoDriveTypeAutoRun to 255 and NoAutorun to 1
under HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\Explorer (the keys the
"Turn off AutoPlay" policy writes). Applies to users as they next sign in.
Exit 0 = set, 1 = failed.
#>
$fix = {
    $key = 'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\Explorer'
    try {
        if (-not (Test-Path -Path $key)) {
            New-Item -Path $key -Force -ErrorAction Stop | Out-Null
        }
        New-ItemProperty -Path $key -Name NoDriveTypeAutoRun -PropertyType DWord -Value 255 -Force -ErrorAction Stop | Out-Null
        New-ItemProperty -Path $key -Name NoAutorun -PropertyType DWord -Value 1 -Force -ErrorAction Stop | Out-Null
    } catch {
        Write-Output "Failed: $($_.Exception.Message)"
        exit 1
    }
    Write-Output 'Remediated: AutoRun is off for all drive types.'
    exit 0
}

# HKLM\SOFTWARE is redirected for 32-bit processes; write the 64-bit view.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $fix
    exit $LASTEXITCODE
}
& $fix
